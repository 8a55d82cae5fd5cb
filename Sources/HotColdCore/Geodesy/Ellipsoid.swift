/// The WGS84 ellipsoid and the derived quantities the geodesic solutions use.
///
/// Computed and inlinable so the optimiser folds them into immediates in the hot path.
@usableFromInline
enum WGS84 {
    /// Equatorial radius, metres.
    @inlinable static var a: Double { 6_378_137 }
    /// Flattening.
    @inlinable static var f: Double { 1 / 298.257223563 }
    /// 1 - f.
    @inlinable static var f1: Double { 1 - f }
    /// Polar semi-axis, metres.
    @inlinable static var b: Double { a * f1 }
    /// First eccentricity squared, f (2 - f).
    @inlinable static var e2: Double { f * (2 - f) }
    /// Second eccentricity squared, e² / (1 - e²).
    @inlinable static var ep2: Double { e2 / (f1 * f1) }
    /// Third flattening, the small parameter of the longitude series.
    @inlinable static var n: Double { f / (2 - f) }
    /// a² / b², used to scale z in the normal-curvature formula.
    @inlinable static var a2OverB2: Double { 1 / (f1 * f1) }
}
