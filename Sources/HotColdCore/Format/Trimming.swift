/// Trimming without Foundation's `CharacterSet`: the pure modules import only
/// FoundationEssentials (a smaller program), which has no `trimmingCharacters(in:)`.
extension StringProtocol {
    /// The text without leading and trailing blanks: spaces and tabs, not line breaks (`.whitespaces`).
    public func trimmingBlanks() -> SubSequence {
        trimming(while: { $0.isWhitespace && !$0.isNewline })
    }

    /// The text without leading and trailing whitespace and line breaks (`.whitespacesAndNewlines`).
    public func trimmingWhitespace() -> SubSequence {
        trimming(while: \.isWhitespace)
    }

    private func trimming(while blank: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
