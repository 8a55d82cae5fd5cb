/// A point with the trigonometry the short-line inverse needs worked out once.
///
/// The engine measures one fix against every tracked target, and each target against every
/// fix: keeping each end's sine, cosine and radius of curvature saves two of the three sines
/// per pair. Results are the same, bit for bit, as `Geodesic.inverse` (the same expressions
/// in the same order; see `ShortLine`).
///
/// ```swift
/// let here = GeodesicPoint(fix), there = GeodesicPoint(target)
/// let (distance, bearing) = Geodesic.distanceAndBearing(here, there)
/// ```
public struct GeodesicPoint: Sendable {
    public let coordinate: Coordinate
    @usableFromInline let sinLat: Double
    @usableFromInline let cosLat: Double
    /// Prime-vertical radius of curvature (metres).
    @usableFromInline let n: Double

    @inlinable
    public init(_ c: Coordinate) {
        coordinate = c
        (sinLat, cosLat) = sincosd(c.latitude)
        n = WGS84.a / (1 - WGS84.e2 * sinLat * sinLat).squareRoot()
    }
}

extension Geodesic {
    /// Distance (metres) and initial bearing (degrees in [0, 360)) from `a` to `b`: exactly
    /// `inverse(a.coordinate, b.coordinate)`'s, without the final bearing.
    @inlinable
    static func distanceAndBearing(_ a: GeodesicPoint, _ b: GeodesicPoint) -> (distance: Double, bearing: Double) {
        if let r = ShortLine.inverseFirstAzimuth(a, b) { return (r.s12, bearing360(r.azi1)) }
        let g = inverse(a.coordinate, b.coordinate)
        return (g.distance, g.initialBearing)
    }
}
