import Foundation

/// One time a user was at a place. Seen / found are derived from visits, never stored apart.
///
/// Automatic visits carry the engine's arrival `episode`; the unique key (user, place, episode)
/// makes replaying the same arrival harmless.
///
/// ```swift
/// let v = Visit(placeId: "GC2T9RW", user: "alice", visitedAt: .now, method: .manual)
/// ```
public struct Visit: Codable, Sendable, Equatable, Identifiable, Hashable {
    public static let databaseTableName = "visit"

    public var id: Int64?
    public var placeId: String
    public var user: String
    public var visitedAt: Date
    public var method: VisitMethod
    /// The arrival episode that produced an automatic visit; nil for manual ones.
    public var episode: String?
    public var photoPath: String?
    /// When the device left (automatic visits); nil while it is still there, and for manual visits.
    public var departedAt: Date?

    public init(id: Int64? = nil, placeId: String, user: String, visitedAt: Date, method: VisitMethod,
                episode: String? = nil, photoPath: String? = nil, departedAt: Date? = nil) {
        self.id = id
        self.placeId = placeId
        self.user = user
        self.visitedAt = visitedAt
        self.method = method
        self.episode = episode
        self.photoPath = photoPath
        self.departedAt = departedAt
    }
}
