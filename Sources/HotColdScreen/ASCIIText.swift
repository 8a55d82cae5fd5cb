/// Text for a terminal that may show only ASCII (`TERM=dumb`): every character the screen draws
/// has an ASCII stand-in of the same width, so a plain frame lays out as the styled one does.
enum ASCIIText {
    static let stand: [Character: String] = [
        "↑": "^", "↗": "/", "→": ">", "↘": "\\", "↓": "v", "↙": "/", "←": "<", "↖": "\\",
        "▲": "^", "▼": "v", "●": "*", "·": "-", "…": "~", "±": "~", "─": "-", "█": "#", "░": ".",
        "✓": "v", "♥": "*", "★": "*", "☆": ".", "—": "-", "–": "-", "°": "o",
        "é": "e", "è": "e", "ê": "e", "á": "a", "à": "a", "â": "a", "ä": "a", "ö": "o", "ó": "o",
        "ü": "u", "ú": "u", "í": "i", "ï": "i", "ç": "c", "ñ": "n", "’": "'", "‘": "'", "“": "\"", "”": "\"",
    ]

    /// `s` with each non-ASCII character replaced by its stand-in, or by `?` per cell it takes.
    static func fold(_ s: String) -> String {
        guard !s.unicodeScalars.allSatisfy(\.isASCII) else { return s }
        var out = ""
        for ch in s {
            if ch.unicodeScalars.allSatisfy(\.isASCII) { out.append(ch); continue }
            if let r = stand[ch] { out += r; continue }
            out += String(repeating: "?", count: DisplayWidth.of(String(ch)))
        }
        return out
    }
}
