import HotColdCore

/// Which places the daemon should track: by kind, the user's favourites, what the user has not
/// yet seen, and optionally within a radius of a point.
///
/// ```swift
/// // Roam among unseen Big Things within 50 km.
/// let f = TargetFilter(kinds: [.bigThing], unseenBy: "alice",
///                      within: 50_000, of: Coordinate(latitude: -30.27, longitude: 153.13))
/// let targets = try store.targets(filter: f)
/// ```
public struct TargetFilter: Codable, Sendable, Equatable {
    /// Nil means every kind.
    public var kinds: Set<TargetKind>?
    /// Only places this user marked favourite.
    public var favouritesOf: String?
    /// Only places this user has no visit to.
    public var unseenBy: String?
    /// Metres; applies together with ``center``.
    public var radius: Double?
    public var center: Coordinate?
    /// Demolished, withdrawn and archived places are left out unless this is set.
    public var includeInactive: Bool

    public init(kinds: Set<TargetKind>? = nil, favouritesOf: String? = nil, unseenBy: String? = nil,
                within radius: Double? = nil, of center: Coordinate? = nil, includeInactive: Bool = false) {
        self.kinds = kinds
        self.favouritesOf = favouritesOf
        self.unseenBy = unseenBy
        self.radius = radius
        self.center = center
        self.includeInactive = includeInactive
    }

    public static let all = TargetFilter(includeInactive: true)
}
