/// Decides which lines from gpsd are handed to libgps's parser (`gps_unpack`).
///
/// libgps 3.22's parser loops forever on some lines: `gps_unpack` calls `libgps_json_unpack`
/// again at the same place whenever an object fails to parse without consuming input. Found by
/// fuzzing (`scripts/fuzz`, target tpv-engine): `{x"class":"TPV"}`, `{"class":"TPV""class":"TPV"}`
/// and even the valid JSON `{"class":"DEVICES","devices":[{"class":"DEVICE","path":7}]}` hang it,
/// so one such line from a broken or hostile gpsd would freeze the reader thread for good.
/// Well-formed lines hang it too whenever an object fails to parse (a member of the wrong type,
/// a key over 30 bytes) and the bytes `"class":` occur again later in the line: the retry
/// finds that second tag, fails again and never moves on (`{"class":"TPV","mode":"x","class":"TPV"}`).
///
/// Only what the source uses gets through: a single well-formed JSON object (RFC 8259, nesting
/// at most ``maximumDepth`` deep) whose first member is `"class"` naming TPV, SKY or WATCH and
/// in which `"class":` occurs nowhere else, which is exactly what gpsd writes for those.
///
/// ```swift
/// GPSDLineGuard.accepts(Array(#"{"class":"TPV","mode":3}"#.utf8)[...])   // true
/// GPSDLineGuard.accepts(Array(#"{x"class":"TPV"}"#.utf8)[...])          // false
/// ```
enum GPSDLineGuard {
    static let maximumDepth = 8
    static let classTag = Array(#""class":"#.utf8)
    static let classes: [[UInt8]] = [Array(#"{"class":"TPV""#.utf8), Array(#"{"class":"SKY""#.utf8),
                                     Array(#"{"class":"WATCH""#.utf8)]

    static func accepts(_ line: ArraySlice<UInt8>) -> Bool {
        var end = line.endIndex
        if end > line.startIndex, line[end - 1] == 0x0D { end -= 1 }
        let text = line[line.startIndex..<end]
        guard let prefix = classes.first(where: { text.starts(with: $0) }),
              text.count > prefix.count,
              text[text.startIndex + prefix.count] == UInt8(ascii: ",")
                || text[text.startIndex + prefix.count] == UInt8(ascii: "}")
        else { return false }
        guard text.dropFirst(1 + classTag.count).firstRange(of: classTag) == nil else { return false }
        var scanner = Scanner(bytes: text)
        guard scanner.value(depth: 0) else { return false }
        scanner.skipSpace()
        return scanner.i == text.endIndex
    }

    /// A strict JSON syntax check: no values are built.
    private struct Scanner {
        let bytes: ArraySlice<UInt8>
        var i: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            i = bytes.startIndex
        }

        mutating func skipSpace() {
            while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            guard i < bytes.endIndex, bytes[i] == c else { return false }
            i += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            skipSpace()
            guard i < bytes.endIndex, depth <= GPSDLineGuard.maximumDepth else { return false }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    skipSpace()
                    guard string() else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    guard value(depth: depth + 1) else { return false }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.endIndex - i >= w.count, bytes[i..<(i + w.count)].elementsEqual(w) else { return false }
            i += w.count
            return true
        }

        mutating func digits() -> Int {
            let start = i
            while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - start
        }

        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let start = i
            let n = digits()
            guard n > 0, n == 1 || bytes[start] != 0x30 else { return false }
            if take(UInt8(ascii: ".")) { guard digits() > 0 else { return false } }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return false }
            }
            return true
        }

        mutating func string() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while i < bytes.endIndex {
                let c = bytes[i]
                i += 1
                switch c {
                case UInt8(ascii: "\""): return true
                case 0x00..<0x20: return false
                case UInt8(ascii: "\\"):
                    guard i < bytes.endIndex else { return false }
                    let e = bytes[i]
                    i += 1
                    if e == UInt8(ascii: "u") {
                        guard bytes.endIndex - i >= 4,
                              bytes[i..<(i + 4)].allSatisfy({ isHex($0) }) else { return false }
                        i += 4
                    } else if !#"\"/bfnrt"#.utf8.contains(e) {
                        return false
                    }
                default: continue
                }
            }
            return false
        }

        func isHex(_ c: UInt8) -> Bool {
            (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
        }
    }
}
