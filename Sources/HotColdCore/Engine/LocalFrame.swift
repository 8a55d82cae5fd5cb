#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A flat east/north frame (metres) around a reference point, using the WGS84 radii of
/// curvature at its latitude.
///
/// Good to a few centimetres over a few hundred metres and ~0.1 % over tens of kilometres —
/// enough for outlier tests and for finding where a segment between two fixes passes a target;
/// every distance the engine reports comes from the exact geodesic instead.
public struct LocalFrame: Sendable {
    public let origin: Coordinate
    @usableFromInline let metresPerDegLat: Double
    @usableFromInline let metresPerDegLon: Double

    public init(origin: Coordinate) {
        self.origin = origin
        // The one WGS84 definition (Geodesy/Ellipsoid.swift): e² exactly f(2 - f), not retyped.
        let a = WGS84.a
        let e2 = WGS84.e2
        let phi = origin.latitude * .pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let meridional = a * (1 - e2) / (w * w * w)
        let primeVertical = a / w
        metresPerDegLat = meridional * .pi / 180
        metresPerDegLon = primeVertical * cos(phi) * .pi / 180
    }

    /// East and north offsets of `c` from the origin, in metres.
    @inlinable
    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        var dLon = c.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegLon, (c.latitude - origin.latitude) * metresPerDegLat)
    }

    /// Approximate distance in metres between two nearby points (no geodesic solve).
    @inlinable
    static func approximateDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let f = LocalFrame(origin: a)
        let p = f.project(b)
        return (p.x * p.x + p.y * p.y).squareRoot()
    }

    /// An upper bound of `approximateDistance(a, b)` without trigonometry: the frame's scales
    /// never exceed the ellipsoid's largest metres per degree (111,694 m of latitude at the
    /// poles, 111,320 m of longitude at the equator), rounded up here.
    @inlinable
    static func distanceUpperBound(_ a: Coordinate, _ b: Coordinate) -> Double {
        var dLon = b.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let x = dLon * 111_330, y = (b.latitude - a.latitude) * 111_700
        return (x * x + y * y).squareRoot()
    }
}
