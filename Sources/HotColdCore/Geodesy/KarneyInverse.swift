#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Karney's solution of the inverse geodesic problem (J. Geodesy 87, 43-55,
/// 2013): works on the auxiliary sphere, finds the azimuth at the first point
/// by Newton's method on the longitude equation, guarded by bisection, with a
/// starting guess from the astroid for nearly antipodal points.
///
/// Valid for every pair of points; the short-line fast path in `ShortLine`
/// handles the common case more cheaply.
@usableFromInline
enum KarneyInverse {
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    // Tolerance for the astroid start: y counts as zero below this.
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    // Bisection stops when the bracket is this narrow (in sin/cos units).
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    // Newton is tried for maxit1 steps, then bisection takes over; the total is
    // bounded so no input can loop for ever.
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    // Below this sin(sigma12) the short-line starting guess is already exact
    // to rounding, so no iteration is needed.
    static let etol2 = 0.1 * tol2
        / (max(0.001, abs(WGS84.f)) * min(1, 1 - WGS84.f / 2) / 2).squareRoot()

    /// Distance in metres and forward azimuths at both ends in degrees, (-180, 180].
    @usableFromInline
    static func solve(lat1 lat1In: Double, lon1: Double, lat2 lat2In: Double, lon2: Double)
        -> (s12: Double, azi1: Double, azi2: Double)
    {
        let f1 = WGS84.f1, b = WGS84.b, ep2 = WGS84.ep2

        // Reduce to the canonical configuration lat1 <= 0, lat1 <= lat2 <= -lat1,
        // 0 <= lon12 <= 180, remembering the symmetries to undo at the end.
        var lon12 = angDiff(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        var lat1 = angRound(lat1In), lat2 = angRound(lat2In)
        let swapp: Double = abs(lat1) < abs(lat2) ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        // Reduced latitudes beta; cos clamped away from 0 so poles need no special case.
        var (sbet1, cbet1) = sincosd(lat1)
        sbet1 *= f1
        normalize(&sbet1, &cbet1)
        cbet1 = max(tiny, cbet1)
        var (sbet2, cbet2) = sincosd(lat2)
        sbet2 *= f1
        normalize(&sbet2, &cbet2)
        cbet2 = max(tiny, cbet2)

        // Make |beta2| == |beta1| exact when it should be: Lambda12 uses the
        // differences of these to compute alpha2 accurately.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }

        let dn1 = (1 + ep2 * sq(sbet1)).squareRoot()
        let dn2 = (1 + ep2 * sq(sbet2)).squareRoot()
        let lam12 = lon12 * (Double.pi / 180)
        let (slam12, clam12) = sincosd(lon12)

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var s12 = 0.0
        var solved = false

        if lat1 == -90 || slam12 == 0 {
            // Along a meridian (or from a pole): the azimuths are known, only the
            // distance is needed. It is the shortest path unless it passes
            // beyond a conjugate point (m12 < 0), which cannot happen for an
            // oblate ellipsoid but is checked anyway.
            calp1 = clam12; salp1 = slam12
            calp2 = 1; salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(positive(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let (s12b, m12b) = lengths(
                eps: WGS84.n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                ssig2: ssig2, csig2: csig2, dn2: dn2)
            if sig12 < 1 || m12b >= 0 {
                s12 = sig12 < 3 * tiny ? 0 : s12b * b
                solved = true
            }
        }

        if !solved && sbet1 == 0 && lon12 <= 180 * f1 {
            // Along the equator, which is shortest only up to (1 - f) * 180 degrees.
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12 = WGS84.a * lam12
            solved = true
        }

        if !solved {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2,
                lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1; calp1 = start.calp1
            if start.sig12 >= 0 {
                // Very short line: the start is already the solution.
                salp2 = start.salp2; calp2 = start.calp2
                s12 = start.sig12 * b * start.dnm
            } else {
                // Newton on alpha1, keeping a bracket [a, b] for bisection fall-back.
                var salp1a = tiny, calp1a = 1.0, salp1b = tiny, calp1b = -1.0
                var tripn = false, tripb = false
                var numit = 0
                var l = Lambda12Result()
                while numit < maxit2 {
                    l = lambda12(
                        sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                        salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                        wantDerivative: numit < maxit1)
                    let v = l.v
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * tol0) { break }
                    if v > 0 && (numit > maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (numit > maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    numit += 1
                    if numit <= maxit1 && l.dv > 0 {
                        let dalp1 = -v / l.dv
                        if abs(dalp1) < Double.pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                normalize(&salp1, &calp1)
                                // Near convergence roundoff can stall v just above
                                // tol0; accept a slightly larger residual then.
                                tripn = abs(v) <= 16 * tol0
                                continue
                            }
                        }
                    }
                    // Newton failed or went outside the bracket: bisect.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    normalize(&salp1, &calp1)
                    tripn = false
                    tripb = abs(salp1a - salp1) + (calp1a - calp1) < tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < tolb
                }
                salp2 = l.salp2; calp2 = l.calp2
                let (s12b, _) = lengths(
                    eps: l.eps, sig12: l.sig12, ssig1: l.ssig1, csig1: l.csig1, dn1: dn1,
                    ssig2: l.ssig2, csig2: l.csig2, dn2: dn2)
                s12 = s12b * b
            }
        }

        // Undo the canonicalisation.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign
        return (s12 + 0, atan2d(salp1, calp1), atan2d(salp2, calp2))
    }

    /// Distance and reduced length, both in units of b (eqs. 38-41).
    @inline(__always)
    static func lengths(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = a1m1(eps), a2m1 = a2m1(eps)
        let c1 = c1Coefficients(eps), c2 = c2Coefficients(eps)
        let b1 = sinSeries(ssig2, csig2, c1) - sinSeries(ssig1, csig1, c1)
        let b2 = sinSeries(ssig2, csig2, c2) - sinSeries(ssig1, csig1, c2)
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        // J12 = I1 - I2 written so the large sig12 terms cancel analytically.
        let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - a2 * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (a1 * (sig12 + b1), m12b)
    }

    struct Lambda12Result {
        var v = 0.0, dv = 0.0
        var salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0
    }

    /// Longitude difference reached by the geodesic leaving point 1 with
    /// azimuth alpha1, minus the target lam120; and its derivative with
    /// respect to alpha1 (eq. 46, via the reduced length).
    @inline(__always)
    static func lambda12(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double, wantDerivative: Bool
    ) -> Lambda12Result {
        let f = WGS84.f, f1 = WGS84.f1
        var r = Lambda12Result()
        var calp1 = calp1In
        // Break the degeneracy of an equatorial line heading due north or south.
        if sbet1 == 0 && calp1 == 0 { calp1 = -tiny }
        let salp0 = salp1 * cbet1  // Clairaut's constant
        let calp0 = (sq(calp1) + sq(salp1 * sbet1)).squareRoot()

        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        normalize(&ssig1, &csig1)

        // alpha2 from Clairaut; its cosine from whichever difference is
        // computed accurately (see the exactness fix-up in `solve`).
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? (sq(calp1 * cbet1)
                + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
                .squareRoot() / cbet2
            : abs(calp1)

        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        normalize(&ssig2, &csig2)

        let sig12 = atan2(positive(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        // omega12 - lam120 directly as one angle, to avoid cancellation.
        let somg12 = positive(comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = sq(calp0) * WGS84.ep2
        let eps = geodesicEps(k2)
        let c3 = c3Coefficients(eps)
        let b312 = sinSeries(ssig2, csig2, c3) - sinSeries(ssig1, csig1, c3)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        r.v = eta + domg12

        if wantDerivative {
            if calp2 == 0 {
                r.dv = -2 * f1 * dn1 / sbet1
            } else {
                let (_, m12b) = lengths(
                    eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                    ssig2: ssig2, csig2: csig2, dn2: dn2)
                r.dv = m12b * f1 / (calp2 * cbet2)
            }
        }
        r.salp2 = salp2; r.calp2 = calp2; r.sig12 = sig12
        r.ssig1 = ssig1; r.csig1 = csig1; r.ssig2 = ssig2; r.csig2 = csig2; r.eps = eps
        return r
    }

    struct Start {
        var sig12 = -1.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0, dnm = 0.0
    }

    /// Starting azimuth for Newton (section 5 of the paper): a sphere with a
    /// scaled longitude for short lines, the astroid for nearly antipodal
    /// ones. For very short lines it is the answer (sig12 >= 0).
    static func inverseStart(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> Start {
        let f = WGS84.f, f1 = WGS84.f1, ep2 = WGS84.ep2
        var r = Start()
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1   // sin(beta2 - beta1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(beta2 + beta1)
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // Scale longitude by the mean radius of the parallel-to-meridian ratio.
            var sbetm2 = sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + sq(cbet1 + cbet2)
            r.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * r.dnm)
            somg12 = sin(omg12); comg12 = cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }

        r.salp1 = cbet2 * somg12
        r.calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
        let ssig12 = (sq(r.salp1) + sq(r.calp1)).squareRoot()
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            r.salp2 = cbet1 * somg12
            r.calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? sq(somg12) / (1 + comg12) : 1 - comg12)
            normalize(&r.salp2, &r.calp2)
            r.sig12 = atan2(ssig12, csig12)
        } else if abs(WGS84.n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(WGS84.n) * Double.pi * sq(cbet1) {
            // Not nearly antipodal: the spherical guess is good enough.
        } else {
            // Nearly antipodal: scale the neighbourhood of the antipode so the
            // solution lies on an astroid (section 5 and appendix of the paper).
            let lam12x = atan2(-slam12, -clam12)  // lam12 - pi
            let k2 = sq(sbet1) * ep2
            let eps = geodesicEps(k2)
            let lamscale = f * cbet1 * a3(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -tol1 && x > -1 - xthresh {
                r.salp1 = min(1, -x)
                r.calp1 = -(1 - sq(r.salp1)).squareRoot()
            } else {
                let k = astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a); comg12 = -cos(omg12a)
                r.salp1 = cbet2 * somg12
                r.calp1 = sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
            }
        }
        if r.salp1 > 0 {
            normalize(&r.salp1, &r.calp1)
        } else {
            r.salp1 = 1; r.calp1 = 0
        }
        return r
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0
    /// (the astroid equation, eq. 55), found in closed form.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = sq(x), q = sq(y)
        let r = (p + q - 1) / 6
        if q == 0 && r <= 0 { return 0 }
        let s = p * q / 4
        let r2 = sq(r), r3 = r * r2
        // The discriminant of the cubic for u.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Pick the sign that avoids cancellation.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (sq(u) + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v  // u + v without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + sq(w)).squareRoot() + w)
    }

    /// max(0, x) that turns -0 into +0: atan2(-0, -1) is -pi, not pi, and a
    /// sigma12 of -pi would make an exactly antipodal line negative.
    @inline(__always)
    static func positive(_ x: Double) -> Double { x > 0 ? x : 0 }
}
