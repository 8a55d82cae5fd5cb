import Foundation

/// A user's note on a place, at most ``maxLength`` characters.
///
/// ```swift
/// let n = try Note(user: "alice", placeId: "GC2T9RW", text: "Behind the sign", updatedAt: .now)
/// n.characterCount   // 15
/// n.wordCount        // 3
/// ```
public struct Note: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "note"
    public static let maxLength = 500

    public var user: String
    public var placeId: String
    public var text: String
    public var updatedAt: Date

    public init(user: String, placeId: String, text: String, updatedAt: Date) throws {
        guard text.count <= Note.maxLength else {
            throw StoreError.noteTooLong(characters: text.count, limit: Note.maxLength)
        }
        self.user = user
        self.placeId = placeId
        self.text = text
        self.updatedAt = updatedAt
    }

    /// Characters as a person counts them (grapheme clusters).
    var characterCount: Int { text.count }
    public var wordCount: Int { Note.words(in: text) }

    package static func words(in text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).count
    }
}
