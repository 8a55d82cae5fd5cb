/// A QR code (ISO/IEC 18004) for a short text: byte mode, error correction level L, versions
/// 1 to 9 (up to 230 bytes — a pairing link is under 100). Written here because no package on
/// the mirror encodes QR codes; `hotcold web pair` prints it in the terminal.
///
/// ```swift
/// let qr = try QRCode(text: "http://10.42.0.1:8470/pair?t=…")
/// qr.size              // 33 for version 4
/// qr.isDark(x: 0, y: 0) // true: a finder pattern's corner
/// ```
public struct QRCode: Sendable {
    public enum Failure: Error, Equatable { case tooLong(bytes: Int, maximum: Int) }

    public let version: Int
    public let size: Int
    /// Row-major modules, true = dark.
    public private(set) var modules: [Bool]
    public let mask: Int

    /// Per version (index 0 = version 1): error-correction codewords per block, and the data
    /// codewords of each block (level L).
    static let blocks: [(ec: Int, data: [Int])] = [
        (7, [19]), (10, [34]), (15, [55]), (20, [80]), (26, [108]),
        (18, [68, 68]), (20, [78, 78]), (24, [97, 97]), (30, [116, 116]),
    ]
    static let alignment: [[Int]] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46]]

    public static var maximumBytes: Int { (blocks.last!.data.reduce(0, +) * 8 - 12) / 8 }

    public init(text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        guard let v = Self.blocks.indices.first(where: { (Self.blocks[$0].data.reduce(0, +) * 8 - 12) / 8 >= bytes.count }) else {
            throw .tooLong(bytes: bytes.count, maximum: Self.maximumBytes)
        }
        version = v + 1
        size = 17 + 4 * version
        let codewords = Self.interleave(Self.dataCodewords(bytes, capacity: Self.blocks[v].data.reduce(0, +)), v)
        var grid = QRGrid(version: version, alignment: Self.alignment[v])
        grid.place(codewords)
        var best: (score: Int, mask: Int, grid: QRGrid)?
        for m in 0..<8 {
            var g = grid
            g.applyMask(m)
            g.drawFormat(mask: m)
            let s = g.penalty()
            if best == nil || s < best!.score { best = (s, m, g) }
        }
        mask = best!.mask
        modules = best!.grid.dark
    }

    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// Mode 0100 (byte), an 8-bit count, the bytes, terminator and padding to `capacity`.
    static func dataCodewords(_ bytes: [UInt8], capacity: Int) -> [UInt8] {
        var bits: [Bool] = []
        func put(_ value: Int, _ n: Int) { for i in stride(from: n - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) } }
        put(0b0100, 4)
        put(bytes.count, 8)
        for b in bytes { put(Int(b), 8) }
        put(0, min(4, capacity * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var out: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { i in
            bits[i..<i + 8].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while out.count < capacity {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }

    /// Splits into blocks, adds each block's error correction, and interleaves them.
    static func interleave(_ data: [UInt8], _ v: Int) -> [UInt8] {
        let spec = blocks[v]
        var dataBlocks: [[UInt8]] = []
        var at = 0
        for n in spec.data {
            dataBlocks.append(Array(data[at..<at + n]))
            at += n
        }
        let ecBlocks = dataBlocks.map { GaloisField.errorCorrection($0, count: spec.ec) }
        var out: [UInt8] = []
        for i in 0..<(spec.data.max() ?? 0) { for b in dataBlocks where i < b.count { out.append(b[i]) } }
        for i in 0..<spec.ec { for b in ecBlocks { out.append(b[i]) } }
        return out
    }
}
