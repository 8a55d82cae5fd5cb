/// The module grid while a QR code is drawn: function patterns first (marked reserved), then
/// data in QR's zig-zag, then a mask and the format (and version) information.
struct QRGrid {
    let version: Int
    let size: Int
    var dark: [Bool]
    var reserved: [Bool]

    init(version: Int, alignment: [Int]) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        reserved = dark
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] { finder(cx, cy) }
        for i in 8..<(size - 8) {
            set(i, 6, i % 2 == 0)
            set(6, i, i % 2 == 0)
        }
        for ax in alignment {
            for ay in alignment {
                let nearFinder = (ax == 6 && ay == 6) || (ax == 6 && ay == size - 7) || (ax == size - 7 && ay == 6)
                if !nearFinder { align(ax, ay) }
            }
        }
        // Format areas (written after masking) and the one always-dark module.
        for i in 0..<9 {
            reserve(8, i)
            reserve(i, 8)
        }
        for i in 0..<8 {
            reserve(size - 1 - i, 8)
            reserve(8, size - 1 - i)
        }
        set(8, size - 8, true)
        if version >= 7 { drawVersion() }
    }

    mutating func set(_ x: Int, _ y: Int, _ on: Bool) {
        dark[y * size + x] = on
        reserved[y * size + x] = true
    }

    mutating func reserve(_ x: Int, _ y: Int) { reserved[y * size + x] = true }

    mutating func finder(_ cx: Int, _ cy: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = cx + dx, y = cy + dy
                guard x >= 0, y >= 0, x < size, y < size else { continue }
                let d = max(abs(dx), abs(dy))
                set(x, y, d != 2 && d != 4)
            }
        }
    }

    mutating func align(_ cx: Int, _ cy: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// 18 bits: the version and its BCH(18,6) code, in the two 6×3 blocks.
    mutating func drawVersion() {
        var rem = version
        for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
        let bits = version << 12 | rem
        for i in 0..<18 {
            let on = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3, b = i / 3
            set(a, b, on)
            set(b, a, on)
        }
    }

    /// Level L (01) and the mask, BCH(15,5) coded and XOR 0x5412, in both copies.
    mutating func drawFormat(mask: Int) {
        let data = (0b01 << 3) | mask
        var rem = data
        for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
        let bits = (data << 10 | rem) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// Codeword bits, most significant first, up and down two-column strips from the right.
    mutating func place(_ codewords: [UInt8]) {
        var i = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vert in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = ((right + 1) & 2) == 0
                    let y = upward ? size - 1 - vert : vert
                    guard !reserved[y * size + x] else { continue }
                    if i < total {
                        dark[y * size + x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
                    }
                }
            }
            right -= 2
        }
    }

    mutating func applyMask(_ m: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] {
                let flip: Bool
                switch m {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { dark[y * size + x].toggle() }
            }
        }
    }

    /// The standard's four penalty rules (runs, 2×2 blocks, finder-like patterns, balance).
    func penalty() -> Int {
        var score = 0
        func at(_ x: Int, _ y: Int) -> Bool { dark[y * size + x] }
        for horizontal in [true, false] {
            for a in 0..<size {
                var run = 1
                var window: [Bool] = []
                for b in 0..<size {
                    let v = horizontal ? at(b, a) : at(a, b)
                    if b > 0 {
                        let prev = horizontal ? at(b - 1, a) : at(a, b - 1)
                        if v == prev { run += 1 } else { run = 1 }
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    }
                    window.append(v)
                    if window.count > 11 { window.removeFirst() }
                    if window.count == 11,
                       window == [true, false, true, true, true, false, true, false, false, false, false]
                        || window == [false, false, false, false, true, false, true, true, true, false, true] {
                        score += 40
                    }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let c = at(x, y)
                if c == at(x + 1, y), c == at(x, y + 1), c == at(x + 1, y + 1) { score += 3 }
            }
        }
        let darkCount = dark.filter { $0 }.count
        let percent = darkCount * 100 / dark.count
        score += abs(percent - 50) / 5 * 10
        return score
    }
}
