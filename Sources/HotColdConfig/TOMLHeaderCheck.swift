/// Refuses table headers that crash the TOML parser before it sees them.
///
/// toml++ 3 (inside TOMLKit) asserts, and so aborts the process, when a table header does not
/// start with a key: `[%]`, `[!]`, `[ #]`, `[[[a]]]`, `[é]`, a lone `[` (built with NDEBUG the
/// assertion becomes an optimiser assumption: undefined behaviour). Found by fuzzing
/// (`scripts/fuzz`, target config). A typo like that on SIGHUP must be reported with the old
/// configuration kept, not kill the daemon, so such lines are refused here, naming the line.
///
/// A header's first character must start a key: a bare-key character (A–Z, a–z, 0–9, `_`, `-`)
/// or a quote; `]` is left to the parser's own error, as is `[` after a single `[` (a nested
/// array on its own line inside a multi-line array).
enum TOMLHeaderCheck {
    /// The 1-based line of the first header that would crash the parser, or nil.
    static func firstBadHeader(in text: String) -> Int? {
        var number = 0
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            var i = line.startIndex
            // The parser skips a byte-order mark before the first line; so must this check
            // (fuzzing found "\u{FEFF}[= [" slipping past it).
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { i = line.index(i, offsetBy: 3) }
            func skipSpace() { while i < line.endIndex, line[i] == 0x20 || line[i] == 0x09 { i = line.index(after: i) } }
            skipSpace()
            guard i < line.endIndex, line[i] == UInt8(ascii: "[") else { continue }
            i = line.index(after: i)
            var arrayOfTables = false
            if i < line.endIndex, line[i] == UInt8(ascii: "[") {
                arrayOfTables = true
                i = line.index(after: i)
            }
            skipSpace()
            guard i < line.endIndex else { return number }
            let c = line[i]
            let startsKey = (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
                || c == UInt8(ascii: "]") || (!arrayOfTables && c == UInt8(ascii: "["))
            if !startsKey { return number }
        }
        return nil
    }
}
