import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdCore

/// Degenerate configurations: poles, antipodes, the equator, the date line.
@Suite(.offCooperativePool) struct GeodesicEdgeCaseTests {
    /// WGS84 quarter meridian, metres.
    static let quarterMeridian = 10_001_965.729_3

    @Test func antipodesOnTheEquatorGoOverAPole() {
        let r = Geodesic.inverse(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 180))
        #expect(abs(r.distance - 2 * Self.quarterMeridian) < 1e-3)
        #expect(r.initialBearing == 0 || r.initialBearing == 180)
    }

    @Test func poleToPole() {
        let r = Geodesic.inverse(Coordinate(latitude: 90, longitude: 30), Coordinate(latitude: -90, longitude: -75))
        #expect(abs(r.distance - 2 * Self.quarterMeridian) < 1e-3)
        let q = Geodesic.inverse(Coordinate(latitude: 0, longitude: 12), Coordinate(latitude: 90, longitude: 0))
        #expect(abs(q.distance - Self.quarterMeridian) < 1e-3)
        #expect(q.initialBearing == 0)
    }

    /// Along the equator up to (1 - f) 180°; beyond that the shortest path leaves it.
    @Test func equator() {
        let e = Geodesic.inverse(Coordinate(latitude: 0, longitude: -60), Coordinate(latitude: 0, longitude: 60))
        #expect(abs(e.distance - 6_378_137 * 120 * .pi / 180) < 1e-6)
        #expect(e.initialBearing == 90 && e.finalBearing == 90)
        let beyond = Geodesic.inverse(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 179.5))
        #expect(beyond.distance < 6_378_137 * 179.5 * .pi / 180)
        #expect(beyond.initialBearing != 90 && beyond.distance.isFinite)
    }

    @Test func acrossTheDateLine() {
        let a = Coordinate(latitude: -16.5, longitude: 179.9999), b = Coordinate(latitude: -16.5, longitude: -179.9999)
        let r = Geodesic.inverse(a, b)
        #expect(abs(r.distance - 21.35) < 0.01)
        #expect(abs(r.initialBearing - 90) < 1e-3)
        let p = Geodesic.direct(from: a, bearing: 90, distance: 1000)
        #expect(p.longitude < -179 && p.isValid)
    }

    /// Nearly antipodal pairs all over the globe: finite, no hang, near half the earth.
    @Test func nearlyAntipodalNeverFails() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<5000 {
            let lat = Double.random(in: -90...90, using: &rng), lon = Double.random(in: -180...180, using: &rng)
            let a = Coordinate(latitude: lat, longitude: lon)
            let b = Coordinate(latitude: min(90, max(-90, -lat + Double.random(in: -0.01...0.01, using: &rng))),
                               longitude: lon + 180 + Double.random(in: -0.01...0.01, using: &rng))
            let r = Geodesic.inverse(a, b)
            #expect(r.distance.isFinite && r.distance > 19_900_000 && r.distance <= 20_003_932, "\(a) \(b)")
            #expect(r.initialBearing.isFinite && r.finalBearing.isFinite)
        }
    }
}
