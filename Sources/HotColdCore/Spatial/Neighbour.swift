
/// A place found by a spatial query, with its WGS84 distance in metres from the query point.
public struct Neighbour: Sendable, Equatable {
    public var target: Target
    public var distance: Double

    public init(target: Target, distance: Double) {
        self.target = target
        self.distance = distance
    }
}
