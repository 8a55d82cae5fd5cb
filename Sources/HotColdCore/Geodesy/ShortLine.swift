import Foundation

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
        // Earth-centred coordinates in a frame turned so point 1 lies at longitude 0.
        let n1 = a / (1 - e2 * s1 * s1).squareRoot()
        let n2 = a / (1 - e2 * s2 * s2).squareRoot()
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
        let s12 = chord * (1 + u * (1.0 / 24 + u * (3.0 / 640)))

        // Normal-section azimuths: the chord in each end's east/north frame,
        // turned by delta = -e'² cos²(phi) E N / (6 N_phi²) radians towards the
        // geodesic (i.e. -e'² s² cos²phi sin 2alpha / (12 N²)); that leaves
        // about 1 % of the difference, < 3e-10 rad at 50 km.
        let ep2 = WGS84.ep2
        let east1 = dy, north1 = c1 * dz - s1 * dx
        let d1 = -ep2 * c1 * c1 / (6 * n1 * n1) * east1 * north1
        let azi1 = atan2d(east1 + d1 * north1, north1 - d1 * east1)
        let east2 = cl * dy - sl * dx, north2 = c2 * dz - s2 * (cl * dx + sl * dy)
        let d2 = -ep2 * c2 * c2 / (6 * n2 * n2) * east2 * north2
        let azi2 = atan2d(east2 + d2 * north2, north2 - d2 * east2)
        return (s12, azi1, azi2)
    }

    /// `inverse` from precomputed ends, without the azimuth at the far end (the engine uses
    /// only the distance and the initial bearing). The same expressions in the same order, so
    /// the same results bit for bit.
    @inlinable
    static func inverseFirstAzimuth(_ p1: GeodesicPoint, _ p2: GeodesicPoint) -> (s12: Double, azi1: Double)? {
        let e2 = WGS84.e2
        let s1 = p1.sinLat, c1 = p1.cosLat
        let s2 = p2.sinLat, c2 = p2.cosLat
        let (sl, cl) = sincosd(angDiff(p1.coordinate.longitude, p2.coordinate.longitude))
        let n1 = p1.n
        let n2 = p2.n
        let x1 = n1 * c1, z1 = n1 * (1 - e2) * s1
        let r2 = n2 * c2
        let x2 = r2 * cl, y2 = r2 * sl, z2 = n2 * (1 - e2) * s2
        let dx = x2 - x1, dy = y2, dz = z2 - z1
        let dh2 = dx * dx + dy * dy
        let c2sq = dh2 + dz * dz
        guard c2sq < maxChord * maxChord else { return nil }
        let q = WGS84.a2OverB2
        let mx = (x1 + x2) / 2, my = y2 / 2, mz = q * (z1 + z2) / 2
        let gradLen = (mx * mx + my * my + mz * mz).squareRoot()
        let kc2 = (dh2 + q * dz * dz) / gradLen
        let u = c2sq > 0 ? kc2 * kc2 / c2sq : 0
        let chord = c2sq.squareRoot()
        let s12 = chord * (1 + u * (1.0 / 24 + u * (3.0 / 640)))
        let ep2 = WGS84.ep2
        let east1 = dy, north1 = c1 * dz - s1 * dx
        let d1 = -ep2 * c1 * c1 / (6 * n1 * n1) * east1 * north1
        let azi1 = atan2d(east1 + d1 * north1, north1 - d1 * east1)
        return (s12, azi1)
    }
}
