import Foundation

// PLACEHOLDER: a spherical stand-in so the rest compiles; replaced by the WGS84 (Karney) solution.

/// Result of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// Ellipsoidal distance in metres.
    public var distance: Double
    /// Initial bearing (forward azimuth) at the first point, degrees clockwise from true north in [0, 360).
    public var initialBearing: Double
    /// Forward azimuth at the second point, degrees in [0, 360).
    public var finalBearing: Double
}

public enum Geodesic {
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> GeodesicInverse {
        let r = 6_371_008.8
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        let d = 2 * r * asin(min(1, sqrt(h)))
        let y = sin(dl) * cos(p2)
        let x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        var brg = atan2(y, x) * 180 / .pi
        if brg < 0 { brg += 360 }
        return GeodesicInverse(distance: d, initialBearing: brg, finalBearing: brg)
    }
}

extension Coordinate {
    /// WGS84 distance in metres.
    public func distance(to other: Coordinate) -> Double { Geodesic.inverse(self, other).distance }
    /// Initial bearing towards `other`, degrees in [0, 360).
    public func bearing(to other: Coordinate) -> Double { Geodesic.inverse(self, other).initialBearing }
}

extension Geodesic {
    public static func direct(from a: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        let r = 6_371_008.8
        let d = distance / r, th = bearing * .pi / 180
        let p1 = a.latitude * .pi / 180, l1 = a.longitude * .pi / 180
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(th))
        let l2 = l1 + atan2(sin(th) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        var lon = l2 * 180 / .pi
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: p2 * 180 / .pi, longitude: lon)
    }
}
