#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Karney's solution of the direct problem (section 3 of the paper): from a
/// point, an azimuth and a distance to the end point and its azimuth.
@usableFromInline
enum KarneyDirect {
    /// End latitude, longitude (-180, 180] and forward azimuth, degrees.
    @usableFromInline
    static func solve(lat1: Double, lon1: Double, azi1: Double, s12: Double)
        -> (lat2: Double, lon2: Double, azi2: Double)
    {
        let f = WGS84.f, f1 = WGS84.f1, b = WGS84.b
        let tiny = Double.leastNormalMagnitude.squareRoot()

        let (salp1, calp1) = sincosd(angRound(angNormalize(azi1)))
        var (sbet1, cbet1) = sincosd(angRound(lat1))
        sbet1 *= f1
        normalize(&sbet1, &cbet1)
        cbet1 = max(tiny, cbet1)

        // The great circle on the auxiliary sphere: its equatorial crossing
        // azimuth alpha0 and the arc sigma1 from that node to point 1.
        let salp0 = salp1 * cbet1
        let calp0 = (sq(calp1) + sq(salp1 * sbet1)).squareRoot()
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        normalize(&ssig1, &csig1)

        let k2 = sq(calp0) * WGS84.ep2
        let eps = geodesicEps(k2)
        let a1m1 = a1m1(eps)
        let c1 = c1Coefficients(eps)
        let b11 = sinSeries(ssig1, csig1, c1)
        // tau1: the distance from the node in units of b * A1, as an angle.
        let sb11 = sin(b11), cb11 = cos(b11)
        let stau1 = ssig1 * cb11 + csig1 * sb11
        let ctau1 = csig1 * cb11 - ssig1 * sb11

        let tau12 = s12 / (b * (1 + a1m1))
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        // Revert the distance series to get sigma2 from tau2 = tau1 + tau12.
        let c1p = c1pCoefficients(eps)
        let b12 = -sinSeries(stau1 * ctau12 + ctau1 * stau12, ctau1 * ctau12 - stau1 * stau12, c1p)
        let sig12 = tau12 - (b12 - b11)
        let ssig12 = sin(sig12), csig12 = cos(sig12)

        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        let csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = (sq(salp0) + sq(calp0 * csig2)).squareRoot()
        if cbet2 == 0 { cbet2 = tiny }  // reached a pole
        let salp2 = salp0, calp2 = calp0 * csig2

        // Longitude: omega12 on the sphere minus the ellipsoidal correction
        // (eq. 8 with I3). omega12 is summed from sigma12 and the two nodes'
        // angles rather than taken as a difference of longitudes, so it keeps
        // counting when the line circles the earth.
        let somg2 = salp0 * ssig2, comg2 = csig2
        let e: Double = salp0.sign == .minus ? -1 : 1
        let omg12 = e * (sig12 - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
            + (atan2(e * somg2, comg2) - atan2(e * somg1, comg1)))
        let c3 = c3Coefficients(eps)
        let b31 = sinSeries(ssig1, csig1, c3)
        let lam12 = omg12 - f * a3(eps) * salp0 * (sig12 + (sinSeries(ssig2, csig2, c3) - b31))
        let lon12 = lam12 * (180 / Double.pi)
        let lon2 = angNormalize(angNormalize(lon1) + angNormalize(lon12))
        return (atan2d(sbet2, f1 * cbet2), lon2, atan2d(salp2, calp2))
    }
}
