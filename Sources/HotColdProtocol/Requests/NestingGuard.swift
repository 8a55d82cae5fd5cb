/// Measures how deeply a JSON text nests objects and arrays, before any decoder sees it, so
/// a line of ten thousand `[` costs a scan and an error, not a deep recursion.
enum NestingGuard {
    /// The deepest nesting in `bytes` (strings and escapes skipped), stopping early past `limit`.
    static func depth(_ bytes: some Sequence<UInt8>, limit: Int) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
