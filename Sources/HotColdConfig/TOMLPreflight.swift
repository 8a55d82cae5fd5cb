/// Refuses the TOML that crashes the parser before the parser sees it.
///
/// toml++ 3 (inside TOMLKit) asserts, and so aborts the process, on two kinds of bad input that
/// fuzzing found (`scripts/fuzz`, target config); built with NDEBUG the assertions would become
/// optimiser assumptions, which is worse. A typo on SIGHUP must be reported with the old
/// configuration kept, not kill the daemon, so both are refused here, naming the line:
///
/// - a table header that does not start with a key: `[%]`, `[!]`, `[ #]`, `[[[a]]]`, `[é]`, a
///   lone `[`. Its first character must be a bare-key character (A–Z, a–z, 0–9, `_`, `-`) or a
///   quote; `]` (an empty header) is left to the parser's own error.
/// - a `}` where an array expects its next element: `users = [}`, `a = [1, }`, or `[ # note`
///   with the `}` on the next line. The parser checks what follows `=`, but inside an array it
///   hands whatever follows `[` or `,` to the value parser, which asserts on `}`; the other
///   characters that end a value are dealt with before that point.
///
/// The scan knows strings (basic, literal, and their multi-line forms), comments and a leading
/// byte-order mark, so nothing inside them counts, and it keeps a stack of open `[` and `{`,
/// so a `[` starting a line is a header only outside any value (inside a multi-line array it
/// is a nested array). Everything else is left to the parser, which reports it as an error.
enum TOMLPreflight {
    /// The first crashing construct: its 1-based line and what is wrong there.
    struct Problem: Equatable {
        let line: Int
        let message: String
    }

    static let badHeader = "a table header must start with a name (letters, digits, _ or -, or a quoted name)"
    static let braceInArray = "'}' where an array expects a value or its closing ']'"

    static func firstProblem(in text: String) -> Problem? {
        var scan = Scanner(Array(text.utf8))
        return scan.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var open: [UInt8] = []                  // "[" and "{" not yet closed, table headers included
        var expectingElement = false            // just after "[" or "," in an array
        var atLineStart = true                  // nothing but spaces since the last newline

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }   // the parser skips a byte-order mark
        }

        func at(_ offset: Int) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

        mutating func run() -> Problem? {
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "["), atLineStart, open.isEmpty, !headerStartsWithAName() {
                    return Problem(line: line, message: TOMLPreflight.badHeader)
                }
                if c != 0x20, c != 0x09, c != 0x0D, c != 0x0A { atLineStart = false }
                switch c {
                case 0x0A:
                    line += 1
                    atLineStart = true
                    i += 1
                case 0x20, 0x09, 0x0D:
                    i += 1
                case UInt8(ascii: "#"):
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    skipString(c)
                    expectingElement = false
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    open.append(c)
                    expectingElement = c == UInt8(ascii: "[")
                    i += 1
                case UInt8(ascii: "}"):
                    if expectingElement, open.last == UInt8(ascii: "[") {
                        return Problem(line: line, message: TOMLPreflight.braceInArray)
                    }
                    if open.last == UInt8(ascii: "{") { open.removeLast() }
                    expectingElement = false
                    i += 1
                case UInt8(ascii: "]"):
                    if open.last == UInt8(ascii: "[") { open.removeLast() }
                    expectingElement = false
                    i += 1
                case UInt8(ascii: ","):
                    expectingElement = open.last == UInt8(ascii: "[")
                    i += 1
                default:
                    expectingElement = false
                    i += 1
                }
            }
            return nil
        }

        /// At a header's "[": whether what follows "[" or "[[" (after spaces) can start a key.
        func headerStartsWithAName() -> Bool {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "[") { j += 1 }
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            guard j < bytes.count else { return false }
            let c = bytes[j]
            return (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
                || c == UInt8(ascii: "]")
        }

        func startsTriple(_ q: UInt8) -> Bool { at(0) == q && at(1) == q && at(2) == q }

        /// Skips the string opened by `q` at i: a multi-line one may hold newlines (counted),
        /// the others end at one. Only basic strings (") have escapes.
        mutating func skipString(_ q: UInt8) {
            let escapes = q == UInt8(ascii: "\"")
            if startsTriple(q) {
                i += 3
                while i < bytes.count, !startsTriple(q) {
                    if bytes[i] == 0x0A { line += 1 }
                    i += escapes && bytes[i] == UInt8(ascii: "\\") && at(1) != 0x0A ? 2 : 1
                }
                // A closing run may be up to five quotes ("""a"""""): the extra ones are content.
                while i < bytes.count, bytes[i] == q { i += 1 }
                return
            }
            i += 1
            while i < bytes.count, bytes[i] != q, bytes[i] != 0x0A {
                i += escapes && bytes[i] == UInt8(ascii: "\\") && at(1) != 0x0A ? 2 : 1
            }
            if i < bytes.count, bytes[i] == q { i += 1 }
        }
    }
}
