import HotColdCore

/// Everything the store knows about one place: the shared row, its kind's details and, for a
/// cache, its child waypoints.
///
/// ```swift
/// if let d = try store.place(id: "GC2T9RW") {
///     print(d.place.name, d.geocache?.difficulty ?? 0, d.waypoints.map(\.id))
/// }
/// ```
public struct PlaceDetail: Codable, Sendable, Equatable {
    public var place: Place
    public var bigThing: BigThingDetails?
    public var geocache: GeocacheDetails?
    public var waypoint: WaypointDetails?
    public var location: LocationDetails?
    /// A cache's child waypoints (empty for other kinds).
    public var waypoints: [Place]

    public init(place: Place, bigThing: BigThingDetails? = nil, geocache: GeocacheDetails? = nil,
                waypoint: WaypointDetails? = nil, location: LocationDetails? = nil,
                waypoints: [Place] = []) {
        self.place = place
        self.bigThing = bigThing
        self.geocache = geocache
        self.waypoint = waypoint
        self.location = location
        self.waypoints = waypoints
    }

    public var id: String { place.id }
}
