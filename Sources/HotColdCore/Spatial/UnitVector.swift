#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A point as a unit vector: straight-line (chord) distance between unit vectors grows with the
/// angle between them, so a 3-D tree over them answers "nearest" on the globe without any
/// special case at the antimeridian or the poles.
package struct UnitVector: Sendable {
    package var x: Double
    package var y: Double
    package var z: Double

    /// Mean Earth radius; only used to turn metres into angles with a safety margin.
    package static let earthRadius = 6_371_008.8

    package init(_ c: Coordinate) {
        let lat = c.latitude * .pi / 180, lon = c.longitude * .pi / 180
        let cl = cos(lat)
        x = cl * cos(lon)
        y = cl * sin(lon)
        z = sin(lat)
    }

    @inline(__always)
    package func squaredChord(_ o: UnitVector) -> Double {
        let dx = x - o.x, dy = y - o.y, dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared chord length for a surface distance in metres on the mean sphere.
    package static func squaredChord(forMetres metres: Double) -> Double {
        let angle = min(Double.pi, max(0, metres) / earthRadius)
        let chord = 2 * sin(angle / 2)
        return chord * chord
    }
}
