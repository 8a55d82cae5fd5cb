/// How many terminal cells text takes, and text made safe and short enough to print.
///
/// A terminal gives most characters one cell, East Asian wide characters and emoji two, and
/// combining marks none; counting `Character`s or bytes instead lets a CJK or emoji target name
/// push a line past the screen's edge, where the terminal wraps it and the view tears.
///
/// ```swift
/// DisplayWidth.of("Big Banana")   // 10
/// DisplayWidth.of("大きい")        // 6
/// DisplayWidth.fit("The Big Pineapple", width: 8)   // "The Big…"
/// ```
public enum DisplayWidth {
    /// Cells taken by one grapheme cluster: 2 when any of its scalars is wide, 0 when it is
    /// only marks or format characters, else 1.
    public static func of(_ c: Character) -> Int {
        var sawVisible = false
        for s in c.unicodeScalars {
            if isWide(s) { return 2 }
            // An emoji followed by VS16 asks for emoji (two-cell) presentation.
            if s.value == 0xFE0F, c.unicodeScalars.first?.properties.isEmoji == true { return 2 }
            if !isZeroWidth(s) { sawVisible = true }
        }
        return sawVisible ? 1 : 0
    }

    /// Cells taken by `text`.
    public static func of(_ text: some StringProtocol) -> Int {
        var n = 0
        for c in text { n += of(c) }
        return n
    }

    /// `text` cut to at most `width` cells, ending in "…" when something was cut.
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var out = ""
        var used = 0
        for c in text {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// `text` with every control character (C0, DEL, C1: escape sequences among them) and
    /// every bidirectional control shown as U+FFFD and cut to `maxCharacters`: a name from a
    /// catalogue must not move the cursor, recolour the screen or reorder what is drawn after it.
    public static func printable(_ text: String, maxCharacters: Int = 200) -> String {
        var out = ""
        var count = 0
        for c in text {
            guard count < maxCharacters else { out.append("…"); break }
            if c.unicodeScalars.contains(where: { isControl($0) || isBidiControl($0) }) { out.append("\u{FFFD}") } else { out.append(c) }
            count += 1
        }
        return out
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    /// The embeddings, overrides and isolates, the marks, and Arabic's letter mark.
    static func isBidiControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    static func isZeroWidth(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return isControl(s)
        }
    }

    /// East Asian Wide and Fullwidth blocks (the ranges terminals draw two cells wide) and
    /// characters that default to emoji presentation.
    static func isWide(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x1100 { return false }
        if s.properties.isEmojiPresentation { return true }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
