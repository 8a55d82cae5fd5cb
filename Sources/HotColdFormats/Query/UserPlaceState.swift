import Foundation

/// One user's relation to one place: visits (from which seen is derived), favourite, rating, note.
///
/// ```swift
/// let s = try store.userState(placeID: "GC2T9RW", user: "alice")
/// s.seen   // true once any visit exists
/// ```
public struct UserPlaceState: Codable, Sendable, Equatable {
    public var user: String
    public var placeId: String
    public var visits: [Visit]
    public var favourite: Bool
    public var rating: Rating?
    public var note: Note?

    public init(user: String, placeId: String, visits: [Visit] = [], favourite: Bool = false,
                rating: Rating? = nil, note: Note? = nil) {
        self.user = user
        self.placeId = placeId
        self.visits = visits
        self.favourite = favourite
        self.rating = rating
        self.note = note
    }

    /// Seen (for a cache: found) means at least one visit, automatic or manual.
    public var seen: Bool { !visits.isEmpty }
    public var lastVisit: Date? { visits.map(\.visitedAt).max() }
}
