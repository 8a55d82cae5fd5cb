
/// A cache's additional waypoint (parking, stages, final): place kind `waypoint`.
///
/// The parent is kept by code rather than by foreign key, because a pocket query's waypoint
/// file may be imported before (or without) its cache file.
///
/// ```swift
/// let w = WaypointDetails(placeId: "PK2T9RW", parentId: "GC2T9RW", waypointType: "Parking Area")
/// ```
public struct WaypointDetails: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "waypoint"

    public var placeId: String
    public var parentId: String
    public var waypointType: String?
    public var comment: String?
    public var description: String?

    public init(placeId: String, parentId: String, waypointType: String? = nil,
                comment: String? = nil, description: String? = nil) {
        self.placeId = placeId
        self.parentId = parentId
        self.waypointType = waypointType
        self.comment = comment
        self.description = description
    }
}
