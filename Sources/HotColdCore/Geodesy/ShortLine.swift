#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fast inverse solution for short lines (chord below `maxChord`), accurate
/// to well under 0.1 mm there.
///
/// Why it works: a geodesic's curvature vector is the surface normal times the
/// normal curvature kappa in its direction (it has no geodesic curvature), and
/// for any smooth curve the arc exceeds its chord c by kappa² c³ / 24, with
/// kappa taken at the arc's midpoint; the next terms are of order c⁵/R⁴
/// (under 1e-8 m at 50 km, the circle part of them is kept anyway). kappa is
/// the ellipsoid's normal curvature along the chord at the chord's midpoint:
/// that direction and point differ from the arc's midpoint tangent and foot
/// point by O(c²/R²) relatively, far below what the c³ term needs.
///
/// The azimuths start as those of the normal sections (the chord projected on
/// each end's tangent plane), which differ from the geodesic azimuths by
/// -e'² s² cos²phi sin 2alpha / (12 N²) (up to 2e-6° at 50 km); that term is
/// removed. `GeodesicFastPathTests` checks both against the full solution.
@usableFromInline
enum ShortLine {
    /// Lines whose chord is longer than this go to the full solution.
    @inlinable static var maxChord: Double { 50_000 }

    /// nil when the points are too far apart for this method.
    @inlinable
    static func inverse(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> (s12: Double, azi1: Double, azi2: Double)? {
        let a = WGS84.a, e2 = WGS84.e2
        let (s1, c1) = sincosd(lat1)
        let (s2, c2) = sincosd(lat2)
        let (sl, cl) = sincosd(angDiff(lon1, lon2))
        let n1 = a / (1 - e2 * s1 * s1).squareRoot()
        let n2 = a / (1 - e2 * s2 * s2).squareRoot()
        guard let (s12, dx, dy, dz) = arc(s1, c1, n1, s2, c2, n2, sl, cl) else { return nil }
        let azi1 = azimuth(east: dy, north: c1 * dz - s1 * dx, cosLat: c1, n: n1)
        let azi2 = azimuth(east: cl * dy - sl * dx, north: c2 * dz - s2 * (cl * dx + sl * dy), cosLat: c2, n: n2)
        return (s12, azi1, azi2)
    }

    /// `inverse` from precomputed ends, without the azimuth at the far end (the engine uses
    /// only the distance and the initial bearing). The same expressions in the same order, so
    /// the same results bit for bit.
    @inlinable
    static func inverseFirstAzimuth(_ p1: GeodesicPoint, _ p2: GeodesicPoint) -> (s12: Double, azi1: Double)? {
        let s1 = p1.sinLat, c1 = p1.cosLat
        let (sl, cl) = sincosd(angDiff(p1.coordinate.longitude, p2.coordinate.longitude))
        guard let (s12, dx, dy, dz) = arc(s1, c1, p1.n, p2.sinLat, p2.cosLat, p2.n, sl, cl) else { return nil }
        return (s12, azimuth(east: dy, north: c1 * dz - s1 * dx, cosLat: c1, n: p1.n))
    }

    /// The arc length between two ends (sine and cosine of latitude, prime-vertical radius n),
    /// in a frame turned so the first lies at longitude 0 (sl, cl: sine and cosine of the
    /// longitude difference); also the chord (dx, dy, dz) for the azimuths. nil beyond `maxChord`.
    @inlinable @inline(__always)
    static func arc(_ s1: Double, _ c1: Double, _ n1: Double, _ s2: Double, _ c2: Double, _ n2: Double,
                    _ sl: Double, _ cl: Double) -> (s12: Double, dx: Double, dy: Double, dz: Double)? {
        let e2 = WGS84.e2
        // Earth-centred coordinates.
        let x1 = n1 * c1, z1 = n1 * (1 - e2) * s1
        let r2 = n2 * c2
        let x2 = r2 * cl, y2 = r2 * sl, z2 = n2 * (1 - e2) * s2
        let dx = x2 - x1, dy = y2, dz = z2 - z1
        let dh2 = dx * dx + dy * dy
        let c2sq = dh2 + dz * dz
        guard c2sq < maxChord * maxChord else { return nil }

        // Normal curvature of x²/a² + y²/a² + z²/b² = 1 along unit t at point m:
        // (t_x² + t_y² + (a/b)² t_z²) / (a² |(m_x, m_y, (a/b)² m_z)|), written
        // with t = d / c to save divisions.
        let q = WGS84.a2OverB2
        let mx = (x1 + x2) / 2, my = y2 / 2, mz = q * (z1 + z2) / 2
        let gradLen = (mx * mx + my * my + mz * mz).squareRoot()
        let kc2 = (dh2 + q * dz * dz) / gradLen  // kappa * c², in metres
        let u = c2sq > 0 ? kc2 * kc2 / c2sq : 0   // (kappa c)²; coincident points give 0
        let chord = c2sq.squareRoot()
        return (chord * (1 + u * (1.0 / 24 + u * (3.0 / 640))), dx, dy, dz)
    }

    /// A normal-section azimuth (the chord in one end's east/north frame), turned by
    /// delta = -e'² cos²(phi) E N / (6 N_phi²) radians towards the geodesic (i.e.
    /// -e'² s² cos²phi sin 2alpha / (12 N²)); that leaves about 1 % of the difference,
    /// < 3e-10 rad at 50 km.
    @inlinable @inline(__always)
    static func azimuth(east: Double, north: Double, cosLat c: Double, n: Double) -> Double {
        let d = -WGS84.ep2 * c * c / (6 * n * n) * east * north
        return atan2d(east + d * north, north - d * east)
    }
}
