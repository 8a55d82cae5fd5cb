import Foundation

/// A place a user marked as favourite (one row per user and place).
///
/// ```swift
/// let f = Favourite(user: "alice", placeId: "halans:d0577fb8cf", createdAt: .now)
/// ```
public struct Favourite: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "favourite"

    public var user: String
    public var placeId: String
    public var createdAt: Date

    public init(user: String, placeId: String, createdAt: Date) {
        self.user = user
        self.placeId = placeId
        self.createdAt = createdAt
    }
}
