#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ISO-8601 UTC timestamps with milliseconds (`2024-03-01T02:03:04.500Z`), both ways.
///
/// Written by hand because it runs once per event and per gpsd JSON line, and
/// `ISO8601DateFormatter` is both slow and not `Sendable`.
public enum ISO8601 {
    /// Seconds since 1970 that `format` writes as `YYYY-…` and `parse` reads back: years
    /// 0000–9999. `parse` refuses a time outside (an offset can push `0000-01-01T00:00:00+01:00`
    /// before year 0; gpsd's `"time":"0x020-03-18T…"` reads as year -1 in libgps; found by
    /// `scripts/fuzz`, target tpv-engine), and the gpsd translation treats one as missing.
    public static let representable: ClosedRange<Double> = -62_167_219_200 ... 253_402_300_799.999

    /// Times outside years 0000–9999 (which the format cannot show) are clamped to that range,
    /// and NaN is written as the earliest time: nothing a source sends can make this trap.
    public static func format(_ date: Date) -> String {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        var totalMs = ms >= maxMs ? Int64(maxMs) : ms >= minMs ? Int64(ms) : Int64(minMs)
        var msPart = totalMs % 1000
        if msPart < 0 { msPart += 1000 }
        totalMs -= msPart
        let secs = totalMs / 1000
        var days = secs / 86400
        var rem = secs % 86400
        if rem < 0 { rem += 86400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        var s = ""
        s.reserveCapacity(24)
        pad(&s, y, 4); s.append("-"); pad(&s, m, 2); s.append("-"); pad(&s, d, 2)
        s.append("T")
        pad(&s, rem / 3600, 2); s.append(":"); pad(&s, (rem / 60) % 60, 2); s.append(":")
        pad(&s, rem % 60, 2); s.append("."); pad(&s, msPart, 3); s.append("Z")
        return s
    }

    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    private static let minMs = -62_167_219_200_000.0
    private static let maxMs = 253_402_300_799_999.0

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`; nil when the text is not such a time.
    public static func parse(_ text: some StringProtocol) -> Date? {
        let u = Array(text.utf8)
        func num(_ a: Int, _ n: Int) -> Int64? {
            guard a + n <= u.count else { return nil }
            var v: Int64 = 0
            for i in a..<(a + n) {
                let c = u[i]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            return v
        }
        guard u.count >= 19, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 116 || u[10] == 32,
              u[13] == 58, u[16] == 58,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s <= 60
        else { return nil }
        var i = 19
        var frac = 0.0
        if i < u.count, u[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 {
                frac += Double(u[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offset: Int64 = 0
        if i < u.count {
            if u[i] == 90 || u[i] == 122 {
                i += 1
            } else if u[i] == 43 || u[i] == 45 {
                guard let oh = num(i + 1, 2) else { return nil }
                var j = i + 3
                if j < u.count, u[j] == 58 { j += 1 }
                guard let om = num(j, 2) else { return nil }
                offset = (oh * 60 + om) * 60 * (u[i] == 45 ? -1 : 1)
                i = j + 2
            } else {
                return nil
            }
        }
        guard i == u.count else { return nil }
        let days = days(fromCivil: y, mo, d)
        let secs = days * 86400 + h * 3600 + mi * 60 + s - offset
        let t = Double(secs) + frac
        guard representable.contains(t) else { return nil }
        return Date(timeIntervalSince1970: t)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm).
    public static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }

    private static func pad(_ s: inout String, _ v: Int64, _ width: Int) {
        let t = String(v)
        if t.count < width { s.append(String(repeating: "0", count: width - t.count)) }
        s.append(t)
    }
}
