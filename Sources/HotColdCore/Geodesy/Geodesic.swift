#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Result of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// Ellipsoidal distance in metres.
    public var distance: Double
    /// Initial bearing (forward azimuth) at the first point, degrees clockwise from true north in [0, 360).
    public var initialBearing: Double
    /// Forward azimuth at the second point, degrees in [0, 360).
    public var finalBearing: Double

    @inlinable
    public init(distance: Double, initialBearing: Double, finalBearing: Double) {
        self.distance = distance
        self.initialBearing = initialBearing
        self.finalBearing = finalBearing
    }
}

/// Geodesics on the WGS84 ellipsoid, after C. F. F. Karney, "Algorithms for
/// geodesics", J. Geodesy 87 (2013).
///
/// ```swift
/// let sydney = Coordinate(latitude: -33.8568, longitude: 151.2153)
/// let perth = Coordinate(latitude: -31.9523, longitude: 115.8613)
/// let line = Geodesic.inverse(sydney, perth)       // 3,291 km, bearing ~ 264°
/// let there = Geodesic.direct(from: sydney, bearing: line.initialBearing,
///                             distance: line.distance)  // ~ perth
/// ```
///
/// Measured accuracy (see the tests): distances within 10 nm of Karney's
/// GeodTest set on every row (nearly antipodal included), bearings within
/// 1e-8° wherever they are well defined. Lines with a chord under 50 km take a
/// cheaper chord-to-arc path that agrees with the full solution to 2 µm in
/// distance and 2e-7° in bearing (nanometres below 1 km).
public enum Geodesic {
    /// Shortest distance and bearings from `a` to `b`. Solves every pair,
    /// nearly antipodal ones included. For coincident points the bearings
    /// are meaningless (0 is returned); for exactly antipodal points any
    /// meridian is shortest and one is picked.
    @inlinable
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> GeodesicInverse {
        let r = ShortLine.inverse(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
            ?? KarneyInverse.solve(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
        return GeodesicInverse(distance: r.s12, initialBearing: bearing360(r.azi1), finalBearing: bearing360(r.azi2))
    }

    /// The point reached by travelling `distance` metres from `start` along
    /// the geodesic leaving it at `bearing` degrees (clockwise from north).
    /// Negative distances go backwards; the longitude is in (-180, 180].
    public static func direct(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        let r = KarneyDirect.solve(lat1: start.latitude, lon1: start.longitude, azi1: bearing, s12: distance)
        return Coordinate(latitude: r.lat2, longitude: r.lon2)
    }
}

extension Coordinate {
    /// WGS84 distance in metres.
    @inlinable
    public func distance(to other: Coordinate) -> Double { Geodesic.inverse(self, other).distance }
    /// Initial bearing towards `other`, degrees in [0, 360).
    @inlinable
    public func bearing(to other: Coordinate) -> Double { Geodesic.inverse(self, other).initialBearing }
}
