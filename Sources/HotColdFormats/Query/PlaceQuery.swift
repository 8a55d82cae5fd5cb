import HotColdCore

/// What `hotcold things` asks for: text, state, kinds, order, and an optional origin for distances.
///
/// ```swift
/// let q = PlaceQuery(text: "pineapple", state: .qld, sort: .distance,
///                    origin: Coordinate(latitude: -27.47, longitude: 153.02))
/// ```
public struct PlaceQuery: Codable, Sendable, Equatable {
    /// Matched case- and accent-insensitively anywhere in the name or town.
    public var text: String?
    public var state: AustralianState?
    /// Nil means every kind.
    public var kinds: Set<TargetKind>?
    public var sort: PlaceSort
    public var origin: Coordinate?
    public var limit: Int?
    public var includeInactive: Bool

    public init(text: String? = nil, state: AustralianState? = nil, kinds: Set<TargetKind>? = nil,
                sort: PlaceSort = .name, origin: Coordinate? = nil, limit: Int? = nil,
                includeInactive: Bool = true) {
        self.text = text
        self.state = state
        self.kinds = kinds
        self.sort = sort
        self.origin = origin
        self.limit = limit
        self.includeInactive = includeInactive
    }
}
