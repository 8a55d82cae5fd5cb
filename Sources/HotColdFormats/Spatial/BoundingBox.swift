import Foundation
import HotColdCore

/// A latitude/longitude box that surely contains every point within `radius` metres of a
/// centre: a cheap SQL prefilter before exact distances.
///
/// ```swift
/// let box = BoundingBox(around: Coordinate(latitude: -33.86, longitude: 151.21), radius: 5_000)
/// ```
public struct BoundingBox: Sendable, Equatable {
    public var south: Double
    public var north: Double
    /// Nil when the box spans every longitude (near a pole or across the antimeridian).
    public var west: Double?
    public var east: Double?

    public init(around center: Coordinate, radius: Double) {
        // 1° of latitude is at least 110.5 km on WGS84; pad 1 % more for safety.
        let dLat = radius / 110_500 * 1.01
        south = max(-90, center.latitude - dLat)
        north = min(90, center.latitude + dLat)
        let maxAbsLat = max(abs(south), abs(north))
        if maxAbsLat >= 89.9 {
            west = nil; east = nil
            return
        }
        let dLon = dLat / cos(maxAbsLat * .pi / 180)
        let w = center.longitude - dLon, e = center.longitude + dLon
        if w < -180 || e > 180 || dLon >= 180 {
            west = nil; east = nil
        } else {
            west = w; east = e
        }
    }
}
