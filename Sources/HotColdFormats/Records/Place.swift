import HotColdCore

/// Anything the user can hunt: a Big Thing, a geocache, a cache's waypoint or a saved location.
///
/// Kind-specific facts live in detail records keyed by the same id
/// (``BigThingDetails``, ``GeocacheDetails``, ``WaypointDetails``, ``LocationDetails``).
///
/// ```swift
/// let p = Place(id: "GC2T9RW", kind: .geocache, name: "der Hampir - T5 -",
///               latitude: 49.349817, longitude: 8.62925)
/// p.target   // what the proximity engine measures against
/// ```
public struct Place: Codable, Sendable, Equatable, Identifiable, Hashable {
    public static let databaseTableName = "place"

    /// Stable id: the catalogue id (`halans:0d23000d3d`), the cache or waypoint code
    /// (`GC2T9RW`, `PK2T9RW`), or `location:…` for locations.
    public var id: String
    public var kind: TargetKind
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// False for places that are gone (withdrawn from the catalogue, demolished, archived caches);
    /// roaming skips them by default but the user's history keeps them.
    public var active: Bool
    /// Case- and accent-folded name and town, for search (see ``SearchText``).
    public var searchText: String

    public init(id: String, kind: TargetKind, name: String, latitude: Double, longitude: Double,
                active: Bool = true, searchText: String? = nil) {
        self.id = id
        self.kind = kind
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.active = active
        self.searchText = searchText ?? SearchText.fold(name)
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    public var target: Target { Target(id: id, name: name, kind: kind, coordinate: coordinate) }
}
