/// Text from another user or the network, made safe to print on a terminal: control
/// characters (C0, DEL, C1) and the bidirectional overrides that can reorder what a terminal
/// shows are written as visible escapes (`\e`, `\u{202E}`), so a name or a note can neither
/// move the cursor, change colours, set the window title nor hide text.
///
/// ```swift
/// print(TerminalText.safe("Big\u{1B}[2JBanana"))    // Big\e[2JBanana
/// ```
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for s in text.unicodeScalars {
            guard needsEscape(s) else { out.unicodeScalars.append(s); continue }
            switch s {
            case "\u{1B}": out += "\\e"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// As `safe`, but keeps line breaks (for multi-line text such as a note or a description).
    public static func safeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
