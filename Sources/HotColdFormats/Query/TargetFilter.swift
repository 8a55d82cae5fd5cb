import HotColdCore

/// Which places the daemon should track: by kind, the user's favourites, what the user has not
/// yet seen. Distance is the spatial index's business (``SpatialIndex``), not the query's.
///
/// ```swift
/// // Roam among unseen Big Things.
/// let f = TargetFilter(kinds: [.bigThing], unseenBy: "alice")
/// let targets = try store.targets(filter: f)
/// ```
public struct TargetFilter: Codable, Sendable, Equatable {
    /// Nil means every kind.
    public var kinds: Set<TargetKind>?
    /// Only places this user marked favourite.
    public var favouritesOf: String?
    /// Only places this user has no visit to.
    public var unseenBy: String?
    /// Demolished, withdrawn and archived places are left out unless this is set.
    public var includeInactive: Bool

    public init(kinds: Set<TargetKind>? = nil, favouritesOf: String? = nil, unseenBy: String? = nil,
                includeInactive: Bool = false) {
        self.kinds = kinds
        self.favouritesOf = favouritesOf
        self.unseenBy = unseenBy
        self.includeInactive = includeInactive
    }

    public static let all = TargetFilter(includeInactive: true)
}
