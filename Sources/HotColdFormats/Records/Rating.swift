import Foundation

/// A user's own 0–5 star rating of a place, with when it was given.
///
/// Its own table (not a column of a state row) so the web API's outbox can refer to it.
///
/// ```swift
/// let r = try Rating(user: "alice", placeId: "halans:d0577fb8cf", stars: 4, ratedAt: .now)
/// ```
public struct Rating: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "rating"
    public static let stars = 0...5

    public var user: String
    public var placeId: String
    public var stars: Int
    public var ratedAt: Date

    public init(user: String, placeId: String, stars: Int, ratedAt: Date) throws {
        guard Rating.stars.contains(stars) else { throw StoreError.invalidRating(stars) }
        self.user = user
        self.placeId = placeId
        self.stars = stars
        self.ratedAt = ratedAt
    }
}
