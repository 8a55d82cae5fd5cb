/// What a device publishes to the broker (`[share] share`): its user's choice, applied to every
/// publication of both layouts, Home Assistant's discovery included.
///
/// | | events, state, location, nearest, HA tracker and sensors, OwnTracks location, phone waypoints | arrivals (feed items, last arrival, OwnTracks transitions) | records | status, likes |
/// |---|---|---|---|---|
/// | `positions` | yes | yes | `[share] records` | yes |
/// | `visits` | never (cleared) | yes, with no coordinate, distance or bearing | `[share] records` | yes |
/// | `nothing` | never (cleared) | never (cleared) | never | yes |
enum SharePolicy: String, Sendable, CaseIterable {
    case positions
    case visits
    case nothing

    /// Coordinates, distances and bearings may leave the car.
    var sharesPositions: Bool { self == .positions }
    /// Arrivals at places (and records) may leave the car.
    var sharesVisits: Bool { self != .nothing }
}
