import Foundation

/// Case- and accent-insensitive search keys, computed in Swift and stored beside the name so
/// SQLite's plain `LIKE` can match "moree" against "Morée" without an ICU extension.
///
/// ```swift
/// SearchText.fold("Bopserbrünnele – Phoon")   // "bopserbrunnele - phoon"
/// ```
public enum SearchText {
    public static func fold(_ text: String) -> String {
        var s = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                             locale: nil)
        // Dashes and quotes vary between sources ("–" vs "-"); searching should not care.
        s = s.replacingOccurrences(of: "\u{2013}", with: "-")
            .replacingOccurrences(of: "\u{2014}", with: "-")
            .replacingOccurrences(of: "\u{2019}", with: "'")
        return s.lowercased()
    }

    /// A LIKE pattern matching `query` anywhere, with LIKE's wildcards escaped (escape char `\`).
    public static func likePattern(_ query: String) -> String {
        var out = "%"
        for ch in fold(query) {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        out.append("%")
        return out
    }
}
