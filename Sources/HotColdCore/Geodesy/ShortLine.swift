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
/// The azimuths are those of the normal sections (the chord projected on each
/// end's tangent plane); they differ from the geodesic azimuths by about
/// e² (c/N)² / 12 rad, i.e. < 3e-7° at 20 km. `GeodesicFastPathTests` checks
/// both against the full solution.
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
        let u = kc2 * kc2 / c2sq                 // (kappa c)²
        let chord = c2sq.squareRoot()
        let s12 = chord * (1 + u * (1.0 / 24 + u * (3.0 / 640)))

        // Normal-section azimuths: the chord in each end's east/north frame.
        let azi1 = atan2d(dy, c1 * dz - s1 * dx)
        let azi2 = atan2d(cl * dy - sl * dx, c2 * dz - s2 * (cl * dx + sl * dy))
        return (s12, azi1, azi2)
    }
}
