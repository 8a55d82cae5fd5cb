/// Arithmetic in GF(2⁸) with QR's polynomial x⁸+x⁴+x³+x²+1 (0x11D), and the Reed–Solomon
/// error-correction codewords QR appends to each data block.
enum GaloisField {
    /// exp[i] = αⁱ; log[exp[i]] = i.
    static let (exp, log): ([UInt8], [Int]) = {
        var e = [UInt8](repeating: 0, count: 512)
        var l = [Int](repeating: 0, count: 256)
        var x = 1
        for i in 0..<255 {
            e[i] = UInt8(x)
            l[x] = i
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
        }
        for i in 255..<512 { e[i] = e[i - 255] }
        return (e, l)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// The generator polynomial ∏(x − αⁱ), i < degree, highest coefficient first (leading 1 dropped).
    static func generator(degree: Int) -> [UInt8] {
        var g: [UInt8] = [1]
        for i in 0..<degree {
            var next = [UInt8](repeating: 0, count: g.count + 1)
            for (j, c) in g.enumerated() {
                next[j] ^= c
                next[j + 1] ^= multiply(c, exp[i])
            }
            g = next
        }
        return Array(g.dropFirst())
    }

    /// The `count` error-correction codewords for `data` (the remainder of data·x^count ÷ g).
    static func errorCorrection(_ data: [UInt8], count: Int) -> [UInt8] {
        let g = generator(degree: count)
        var r = [UInt8](repeating: 0, count: count)
        for d in data {
            let factor = d ^ r[0]
            r.removeFirst()
            r.append(0)
            for i in 0..<count { r[i] ^= multiply(g[i], factor) }
        }
        return r
    }
}
