#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal numbers straight from ASCII bytes, without building a `String` per field.
enum DecimalBytes {
    private static let powersOfTen: [Double] = (0...22).map { pow(10.0, Double($0)) }

    /// `[-+]digits[.digits][(e|E)[-+]digits]`, the whole slice and nothing else; nil otherwise.
    ///
    /// Exact digits up to 2^53 scaled by one exact power of ten round once, so the result equals
    /// `strtod`'s (what gpsd uses); longer mantissas or exponents fall back to `strtod`.
    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        guard n > 0 else { return nil }
        var negative = false
        if b[0] == 0x2D || b[0] == 0x2B {
            negative = b[0] == 0x2D
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var overflow = false
        while i < n, b[i] &- 0x30 < 10 {
            if mantissa < 1 << 53 / 10 { mantissa = mantissa * 10 + UInt64(b[i] &- 0x30) } else { overflow = true }
            digits += 1
            i += 1
        }
        if i < n, b[i] == 0x2E {
            i += 1
            while i < n, b[i] &- 0x30 < 10 {
                if mantissa < 1 << 53 / 10 {
                    mantissa = mantissa * 10 + UInt64(b[i] &- 0x30)
                    exponent -= 1
                } else { overflow = true }
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < n, b[i] | 0x20 == 0x65 {
            i += 1
            var expNegative = false
            if i < n, b[i] == 0x2D || b[i] == 0x2B {
                expNegative = b[i] == 0x2D
                i += 1
            }
            var e = 0
            let expStart = i
            while i < n, b[i] &- 0x30 < 10 {
                if e < 100_000 { e = e * 10 + Int(b[i] &- 0x30) }
                i += 1
            }
            guard i > expStart else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == n else { return nil }
        if overflow || exponent < -22 || exponent > 22 { return slowPath(b) }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }

    private static func slowPath(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var text = Array(b)
        text.append(0)
        return text.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { strtod($0, nil) }
        }
    }

    /// Unsigned decimal integer, the whole slice; nil when empty, not digits, or absurdly long.
    static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty, b.count <= 18 else { return nil }
        var v = 0
        for c in b {
            guard c &- 0x30 < 10 else { return nil }
            v = v * 10 + Int(c &- 0x30)
        }
        return v
    }
}
