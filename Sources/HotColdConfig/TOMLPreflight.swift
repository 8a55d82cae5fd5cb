/// Checks a configuration file's TOML syntax before the parser sees it, so that the parser only
/// ever reads well-formed TOML.
///
/// Why: toml++ 3 (inside TOMLKit) asserts, and so aborts the process, on some malformed input.
/// Fuzzing (`scripts/fuzz`, target config) found three: a table header not starting with a key
/// (`[%]`, `[[[a]]]`), a `}` where an array expects an element (`users = [}`), and a date
/// followed by a one-digit "time" (`d = 1979-05-27 0#`). Built with NDEBUG the assertions would
/// become optimiser assumptions, which is worse. A typo on SIGHUP must be reported with the old
/// configuration kept, not kill the daemon; rather than chase each malformed shape, this check
/// accepts only well-formed TOML of the kinds a hotcold configuration uses, and names the line
/// of anything else.
///
/// Accepted: comments; `[table]` and `[[array.of.tables]]` headers with bare, quoted or dotted
/// keys; `key = value` where a value is a string (basic, literal, multi-line), an integer
/// (decimal, 0x, 0o, 0b, with underscores between digits), a float (fraction and/or exponent,
/// inf, nan), a boolean, an array (over several lines, with comments and a trailing comma) or
/// a one-line inline table, nested at most 32 deep. Refused: dates and times (no hotcold key
/// takes one), non-ASCII outside strings and comments (TOML 1.0 allows none there), control
/// characters. What is well formed but wrong (a key given twice, a table defined twice) is left
/// to the parser, which reports it as an error.
enum TOMLPreflight {
    struct Problem: Error, Equatable {
        let line: Int
        let message: String
    }

    static let maximumDepth = 32

    static func firstProblem(in text: String) -> Problem? {
        var scanner = Scanner(Array(text.utf8))
        do {
            try scanner.document()
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0
        var line = 1

        init(_ bytes: [UInt8]) {
            b = bytes
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }     // a byte-order mark, as the parser allows
        }

        // MARK: Characters

        var peek: UInt8? { i < b.count ? b[i] : nil }
        func peek(_ offset: Int) -> UInt8? { i + offset < b.count ? b[i + offset] : nil }
        func fail(_ message: String) -> Problem { Problem(line: line, message: message) }

        static func isDigit(_ c: UInt8?) -> Bool { c.map { (0x30...0x39).contains($0) } ?? false }
        static func isHex(_ c: UInt8?) -> Bool {
            c.map { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) } ?? false
        }
        static func isBareKey(_ c: UInt8?) -> Bool {
            guard let c else { return false }
            return (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }

        /// What a character is, for messages: printable ASCII quoted, anything else by code.
        func describe(_ c: UInt8?) -> String {
            guard let c else { return "the end of the file" }
            if c == 0x0A { return "the end of the line" }
            if (0x21...0x7E).contains(c) { return "'\(Character(Unicode.Scalar(c)))'" }
            if c >= 0x80 { return "a non-ASCII character (allowed only in strings and comments)" }
            return "control character 0x\(String(c, radix: 16, uppercase: true))"
        }

        mutating func skipSpaces() { while peek == 0x20 || peek == 0x09 { i += 1 } }

        /// A comment (if any) and the end of the line (or file).
        mutating func endOfLine() throws(Problem) {
            skipSpaces()
            if peek == UInt8(ascii: "#") {
                i += 1
                while let c = peek, c != 0x0A {
                    if c == 0x0D, peek(1) == 0x0A { break }
                    if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("\(describe(c)) in a comment") }
                    i += 1
                }
            }
            guard let c = peek else { return }
            if c == 0x0D, peek(1) == 0x0A { i += 1 }
            guard peek == 0x0A else { throw fail("expected the end of the line, found \(describe(c))") }
            i += 1
            line += 1
        }

        /// Spaces, comments and newlines (inside an array).
        mutating func skipBlank() throws(Problem) {
            while true {
                skipSpaces()
                guard let c = peek else { return }
                if c == UInt8(ascii: "#") || c == 0x0A || (c == 0x0D && peek(1) == 0x0A) {
                    try endOfLine()
                } else {
                    return
                }
            }
        }

        // MARK: Structure

        mutating func document() throws(Problem) {
            while i < b.count {
                skipSpaces()
                switch peek {
                case UInt8(ascii: "["): try header()
                case UInt8(ascii: "#"), 0x0A, 0x0D, nil: break
                default: try keyValue()
                }
                try endOfLine()
            }
        }

        mutating func header() throws(Problem) {
            i += 1
            let doubled = peek == UInt8(ascii: "[")
            if doubled { i += 1 }
            skipSpaces()
            guard peek.map({ Self.isBareKey($0) || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) ?? false else {
                throw fail("a table header must start with a name (letters, digits, _ or -, or a quoted name), found \(describe(peek))")
            }
            try key()
            skipSpaces()
            for _ in 0..<(doubled ? 2 : 1) {
                guard peek == UInt8(ascii: "]") else { throw fail("expected ']' to close the table header, found \(describe(peek))") }
                i += 1
            }
        }

        /// A bare, quoted or dotted key.
        mutating func key() throws(Problem) {
            while true {
                skipSpaces()
                if Self.isBareKey(peek) {
                    while Self.isBareKey(peek) { i += 1 }
                } else if peek == UInt8(ascii: "\"") || peek == UInt8(ascii: "'") {
                    if peek(1) == peek, peek(2) == peek { throw fail("a key cannot be a multi-line string") }
                    try string()
                } else {
                    throw fail("expected a key (letters, digits, _ or -, or a quoted name), found \(describe(peek))")
                }
                skipSpaces()
                guard peek == UInt8(ascii: ".") else { return }
                i += 1
            }
        }

        mutating func keyValue() throws(Problem) {
            try key()
            skipSpaces()
            guard peek == UInt8(ascii: "=") else { throw fail("expected '=' after the key, found \(describe(peek))") }
            i += 1
            skipSpaces()
            try value(depth: 1)
        }

        // MARK: Values

        mutating func value(depth: Int) throws(Problem) {
            guard depth <= TOMLPreflight.maximumDepth else {
                throw fail("arrays and inline tables nested more than \(TOMLPreflight.maximumDepth) deep")
            }
            switch peek {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "{"): try inlineTable(depth: depth)
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                if !word("true"), !word("false") { throw fail("expected a value, found \(describe(peek))") }
            default: try number()
            }
        }

        /// Consumes `w` if it stands next, not followed by a key character.
        mutating func word(_ w: String) -> Bool {
            let u = Array(w.utf8)
            guard i + u.count <= b.count, Array(b[i..<(i + u.count)]) == u, !Self.isBareKey(peek(u.count)) else { return false }
            i += u.count
            return true
        }

        mutating func array(depth: Int) throws(Problem) {
            i += 1
            try skipBlank()
            while peek != UInt8(ascii: "]") {
                guard peek != nil else { throw fail("the array is not closed with ']'") }
                try value(depth: depth + 1)
                try skipBlank()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    try skipBlank()
                } else if peek != UInt8(ascii: "]") {
                    throw fail("expected ',' or ']' in the array, found \(describe(peek))")
                }
            }
            i += 1
        }

        mutating func inlineTable(depth: Int) throws(Problem) {
            i += 1
            skipSpaces()
            if peek == UInt8(ascii: "}") { i += 1; return }
            while true {
                try key()
                skipSpaces()
                guard peek == UInt8(ascii: "=") else { throw fail("expected '=' after the key, found \(describe(peek))") }
                i += 1
                skipSpaces()
                try value(depth: depth + 1)
                skipSpaces()
                if peek == UInt8(ascii: "}") { i += 1; return }
                guard peek == UInt8(ascii: ",") else {
                    throw fail("expected ',' or '}' in the inline table (which stays on one line), found \(describe(peek))")
                }
                i += 1
                skipSpaces()
            }
        }

        /// An integer or float, as TOML 1.0 writes them; dates and times are refused.
        mutating func number() throws(Problem) {
            let start = i
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            if word("inf") || word("nan") { return }
            guard Self.isDigit(peek) else { throw fail("expected a value (a string, number, true or false, array or inline table), found \(describe(peek))") }
            if peek == UInt8(ascii: "0"), let p = peek(1), i == start,
               p == UInt8(ascii: "x") || p == UInt8(ascii: "o") || p == UInt8(ascii: "b") {
                i += 2
                switch p {
                case UInt8(ascii: "x"): try digits(Self.isHex)
                case UInt8(ascii: "o"): try digits { c in c.map { (0x30...0x37).contains($0) } ?? false }
                default: try digits { c in c == UInt8(0x30) || c == UInt8(0x31) }
                }
                return try numberEnds()
            }
            let digitsStart = i
            try digits(Self.isDigit)
            if peek == UInt8(ascii: "-") || peek == UInt8(ascii: ":") {
                throw fail("dates and times are not used in a hotcold configuration")
            }
            if b[digitsStart] == 0x30, i - digitsStart > 1 { throw fail("a number cannot start with 0 (octal is written 0o)") }
            if peek == UInt8(ascii: ".") {
                i += 1
                try digits(Self.isDigit)
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                try digits(Self.isDigit)
            }
            try numberEnds()
        }

        /// One or more digits, single underscores allowed between them.
        mutating func digits(_ ok: (UInt8?) -> Bool) throws(Problem) {
            guard ok(peek) else { throw fail("expected a digit, found \(describe(peek))") }
            while ok(peek) || (peek == UInt8(ascii: "_") && ok(peek(1))) { i += 1 }
        }

        /// What may follow a number: space, a comment, a newline, or the end of an array or table.
        func numberEnds() throws(Problem) {
            guard let c = peek else { return }
            let ends: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")]
            guard ends.contains(c) else { throw fail("not a number: unexpected \(describe(c))") }
        }

        /// A basic or literal string, on one line or (tripled quotes) several.
        mutating func string() throws(Problem) {
            let q = b[i]
            let basic = q == UInt8(ascii: "\"")
            let multiLine = peek(1) == q && peek(2) == q
            i += multiLine ? 3 : 1
            if multiLine, peek == 0x0A { i += 1; line += 1 }     // a newline right after the quotes is dropped
            else if multiLine, peek == 0x0D, peek(1) == 0x0A { i += 2; line += 1 }
            while true {
                guard let c = peek else { throw fail("the string is not closed") }
                if c == q {
                    if !multiLine { i += 1; return }
                    if peek(1) == q, peek(2) == q {
                        i += 3
                        // Up to two more quotes belong to the string ("""a""""" is a"").
                        for _ in 0..<2 where peek == q { i += 1 }
                        return
                    }
                    i += 1
                    continue
                }
                if c == 0x0A || (c == 0x0D && peek(1) == 0x0A) {
                    guard multiLine else { throw fail("the string is not closed on its line") }
                    i += c == 0x0D ? 2 : 1
                    line += 1
                    continue
                }
                if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("\(describe(c)) in a string (write it as an escape)") }
                if basic, c == UInt8(ascii: "\\") {
                    try escape(multiLine: multiLine)
                    continue
                }
                if c >= 0x80 { try utf8Scalar(); continue }
                i += 1
            }
        }

        mutating func escape(multiLine: Bool) throws(Problem) {
            i += 1
            guard let e = peek else { throw fail("the string is not closed") }
            switch e {
            case UInt8(ascii: "b"), UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "f"), UInt8(ascii: "r"),
                 UInt8(ascii: "\""), UInt8(ascii: "\\"):
                i += 1
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let n = e == UInt8(ascii: "u") ? 4 : 8
                i += 1
                var v: UInt32 = 0
                for _ in 0..<n {
                    guard let h = peek, Self.isHex(h) else { throw fail("\\\(Character(Unicode.Scalar(e))) needs \(n) hex digits") }
                    v = v << 4 | UInt32(h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x61 + 10)
                    i += 1
                }
                guard Unicode.Scalar(v) != nil else { throw fail("\\\(Character(Unicode.Scalar(e))) escape is not a Unicode scalar value") }
            case 0x20, 0x09, 0x0A, 0x0D:
                // A line-ending backslash: spaces, then a newline, then all blank space is dropped.
                guard multiLine else { throw fail("a backslash in a string must start an escape such as \\n or \\\\") }
                var j = i
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
                guard j < b.count, b[j] == 0x0A || (b[j] == 0x0D && j + 1 < b.count && b[j + 1] == 0x0A) else {
                    throw fail("a backslash in a string must start an escape such as \\n or \\\\")
                }
                i = j
            default:
                throw fail("a backslash in a string must start an escape such as \\n or \\\\")
            }
        }

        /// One well-formed UTF-8 sequence (a Swift String is always valid UTF-8; kept for safety).
        mutating func utf8Scalar() throws(Problem) {
            let c = b[i]
            let n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0
            guard n > 0, i + n <= b.count, (1..<n).allSatisfy({ b[i + $0] & 0xC0 == 0x80 }) else {
                throw fail("not valid UTF-8")
            }
            i += n
        }
    }
}
