// Series expansions of the geodesic integrals (Karney 2013, eqs. 15-25, 40-43),
// truncated at sixth order in eps (and in the third flattening n), which is
// enough for double precision on WGS84 (eps <= 0.0017).
//
// The distance integral:  I1(s) = A1 (s + sum C1[l] sin 2ls)
// its reversion:          s = t + sum C1p[l] sin 2lt,  t = I1 / A1
// the reduced-length one: I2(s) = A2 (s + sum C2[l] sin 2ls)
// the longitude one:      I3(s) = A3 (s + sum C3[l] sin 2ls)
//
// Coefficients live in SIMD8 (index l = 1...6) so nothing is heap allocated.

@usableFromInline typealias SeriesCoefficients = SIMD8<Double>

/// eps = k² / (2 (1 + sqrt(1 + k²)) + k²), the expansion parameter (eq. 16);
/// `k2` is e'² cos² alpha0.
@inlinable @inline(__always)
func geodesicEps(_ k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
}

/// A1 - 1.
@inlinable
func a1m1(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (e2 * (e2 + 4) + 64) / 256  // eps²/4 + eps⁴/64 + eps⁶/256
    return (t + eps) / (1 - eps)
}

/// A2 - 1.
@inlinable
func a2m1(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (e2 * (25 * e2 + 36) + 64) / 256  // eps²/4 + 9eps⁴/64 + 25eps⁶/256
    return t * (1 - eps) - eps
}

@inlinable
func c1Coefficients(_ eps: Double) -> SeriesCoefficients {
    let e2 = eps * eps
    var c = SeriesCoefficients()
    var d = eps
    c[1] = d * (e2 * (6 - e2) - 16) / 32
    d *= eps
    c[2] = d * (e2 * (64 - 9 * e2) - 128) / 2048
    d *= eps
    c[3] = d * (9 * e2 - 16) / 768
    d *= eps
    c[4] = d * (3 * e2 - 5) / 512
    d *= eps
    c[5] = -7 * d / 1280
    d *= eps
    c[6] = -7 * d / 2048
    return c
}

@inlinable
func c1pCoefficients(_ eps: Double) -> SeriesCoefficients {
    let e2 = eps * eps
    var c = SeriesCoefficients()
    var d = eps
    c[1] = d * (e2 * (205 * e2 - 432) + 768) / 1536
    d *= eps
    c[2] = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288
    d *= eps
    c[3] = d * (116 - 225 * e2) / 384
    d *= eps
    c[4] = d * (2695 - 7173 * e2) / 7680
    d *= eps
    c[5] = 3467 * d / 7680
    d *= eps
    c[6] = 38081 * d / 61440
    return c
}

@inlinable
func c2Coefficients(_ eps: Double) -> SeriesCoefficients {
    let e2 = eps * eps
    var c = SeriesCoefficients()
    var d = eps
    c[1] = d * (e2 * (e2 + 2) + 16) / 32
    d *= eps
    c[2] = d * (e2 * (35 * e2 + 64) + 384) / 2048
    d *= eps
    c[3] = d * (15 * e2 + 80) / 768
    d *= eps
    c[4] = d * (7 * e2 + 35) / 512
    d *= eps
    c[5] = 63 * d / 1280
    d *= eps
    c[6] = 77 * d / 2048
    return c
}

/// The n-dependent parts of A3 and C3 are constant for an ellipsoid; fold them once.
@usableFromInline
enum LongitudeSeries {
    // A3 = 1 - sum a3[j] eps^j, j = 1...5
    @usableFromInline static let a3: SIMD8<Double> = {
        let n = WGS84.n
        var v = SIMD8<Double>()
        v[1] = (1 - n) / 2
        v[2] = (2 + n * (1 - 3 * n)) / 8
        v[3] = (1 + n * (3 + n)) / 16
        v[4] = (3 + 2 * n) / 64
        v[5] = 3.0 / 128
        return v
    }()

    // C3[l] = sum_j c3[l][j] eps^j; stored as one SIMD8 per power of eps (index l).
    @usableFromInline static let c3ByPower: (SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>) = {
        let n = WGS84.n, n2 = n * n
        var p1 = SIMD8<Double>(), p2 = SIMD8<Double>(), p3 = SIMD8<Double>()
        var p4 = SIMD8<Double>(), p5 = SIMD8<Double>()
        p1[1] = (1 - n) / 4
        p2[1] = (1 - n2) / 8
        p3[1] = (3 + 3 * n - n2) / 64
        p4[1] = (5 + 2 * n) / 128
        p5[1] = 3.0 / 128
        p2[2] = (2 - 3 * n + n2) / 32
        p3[2] = (3 - 2 * n - 3 * n2) / 64
        p4[2] = (3 + n) / 128
        p5[2] = 5.0 / 256
        p3[3] = (5 - 9 * n + 5 * n2) / 192
        p4[3] = (9 - 10 * n) / 384
        p5[3] = 7.0 / 512
        p4[4] = (7 - 14 * n) / 512
        p5[4] = 7.0 / 512
        p5[5] = 21.0 / 2560
        return (p1, p2, p3, p4, p5)
    }()
}

@inlinable
func a3(_ eps: Double) -> Double {
    let v = LongitudeSeries.a3
    return 1 - eps * (v[1] + eps * (v[2] + eps * (v[3] + eps * (v[4] + eps * v[5]))))
}

@inlinable
func c3Coefficients(_ eps: Double) -> SeriesCoefficients {
    let p = LongitudeSeries.c3ByPower
    return eps * (p.0 + eps * (p.1 + eps * (p.2 + eps * (p.3 + eps * p.4))))
}

/// sum_{l=1}^{6} c[l] sin(2 l sigma), by Clenshaw's recurrence, given sin and
/// cos of sigma (on the unit circle).
@inlinable
func sinSeries(_ sinx: Double, _ cosx: Double, _ c: SeriesCoefficients) -> Double {
    let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2x
    var b1 = 0.0, b2 = 0.0
    var l = 6
    while l >= 1 {
        let b0 = c[l] + ar * b1 - b2
        b2 = b1
        b1 = b0
        l -= 1
    }
    return 2 * sinx * cosx * b1  // sin 2x * b_1
}
