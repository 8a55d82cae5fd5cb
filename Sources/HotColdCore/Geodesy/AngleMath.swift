#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

// Angle helpers in degrees. Reducing to the first octant before calling the
// radian functions keeps results exact at multiples of 90° (so a pole gives
// exactly 90, a due-east line exactly 90°), which the geodesic code relies on
// to recognise meridional and equatorial cases.

@inlinable @inline(__always)
func sq(_ x: Double) -> Double { x * x }

/// sin and cos of an angle given in degrees.
@inlinable
func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
    // fmod is a slow library call; skip it for the usual |x| <= 360.
    var r = abs(x) <= 360 ? x : x.truncatingRemainder(dividingBy: 360)  // exact
    let q = (r / 90).rounded()
    r -= 90 * q  // exact; |r| <= 45
    let rad = r * (Double.pi / 180)
    let s = sin(rad)
    // For |r| <= 45° cos >= 0.7, so the square root is as accurate as cos()
    // (within an ulp or two) and much cheaper than a second library call.
    let c = (1 - s * s).squareRoot()
    // |q| <= 4 for any finite x; NaN or ±inf gives NaN, which must not reach Int() (a trap).
    switch (q.isFinite ? Int(q) : 0) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}

/// atan2 in degrees, result in [-180, 180].
@inlinable
func atan2d(_ y: Double, _ x: Double) -> Double {
    var y = y, x = x, q = 0
    if abs(y) > abs(x) { swap(&x, &y); q = 2 }
    if x.sign == .minus { x = -x; q += 1 }
    let ang = atan2(y, x) * (180 / Double.pi)  // |ang| <= 45
    switch q {
    case 1: return (y.sign == .minus ? -180 : 180) - ang
    case 2: return 90 - ang
    case 3: return -90 + ang
    default: return ang
    }
}

/// Reduces an angle to (-180, 180].
@inlinable
func angNormalize(_ x: Double) -> Double {
    let y = abs(x) <= 180 ? x : x.remainder(dividingBy: 360)
    return y == -180 ? 180 : y
}

/// y - x reduced to (-180, 180].
@inlinable
func angDiff(_ x: Double, _ y: Double) -> Double {
    angNormalize(angNormalize(y) - angNormalize(x))
}

/// Maps a bearing in (-180, 180] to [0, 360).
@inlinable
func bearing360(_ x: Double) -> Double {
    if x >= 0 { return x == 360 ? 0 : x + 0 }  // + 0 turns -0 into 0
    let y = x + 360
    return y >= 360 ? 0 : y
}

/// Coarsens tiny angles to a grid of 2^-57 so that, e.g., a latitude of 1e-300
/// behaves like the equator instead of producing a near-degenerate geodesic.
@inlinable
func angRound(_ x: Double) -> Double {
    let z = 1.0 / 16
    var y = abs(x)
    y = y < z ? z - (z - y) : y
    return x.sign == .minus ? -y : y
}

/// Scales (y, x) to unit length.
@inlinable @inline(__always)
func normalize(_ y: inout Double, _ x: inout Double) {
    let r = (y * y + x * x).squareRoot()
    y /= r
    x /= r
}
