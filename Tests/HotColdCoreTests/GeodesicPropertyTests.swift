import Foundation
import PropertyBased
import HotColdDaemonTesting
import Testing
@testable import HotColdCore

/// Properties that hold for every pair of points, checked on generated inputs.
@Suite(.offCooperativePool) struct GeodesicPropertyTests {
    static let latitude = Gen.double(in: -90...90)
    static let longitude = Gen.double(in: -180...180)
    static let bearing = Gen.double(in: 0..<360)

    @Test func distanceIsSymmetric() async {
        await propertyCheck(count: 2000, input: Self.latitude, Self.longitude, Self.latitude, Self.longitude) {
            lat1, lon1, lat2, lon2 in
            let a = Coordinate(latitude: lat1, longitude: lon1), b = Coordinate(latitude: lat2, longitude: lon2)
            let ab = Geodesic.inverse(a, b), ba = Geodesic.inverse(b, a)
            #expect(abs(ab.distance - ba.distance) <= 1e-8, "\(a) \(b)")
            // The reverse line leaves b pointing back along the arrival bearing,
            // unless the bearing is ill-defined (nearly antipodal points).
            if ab.distance < 19_000_000 && ab.distance > 1 {
                #expect(angleError(ba.initialBearing, ab.finalBearing + 180) <= 1e-7, "\(a) \(b)")
            }
        }
    }

    @Test func resultsAreInRange() async {
        await propertyCheck(count: 2000, input: Self.latitude, Self.longitude, Self.latitude, Self.longitude) {
            lat1, lon1, lat2, lon2 in
            let r = Geodesic.inverse(
                Coordinate(latitude: lat1, longitude: lon1), Coordinate(latitude: lat2, longitude: lon2))
            #expect(r.distance >= 0 && r.distance <= 20_003_932, "half a meridian is the longest geodesic")
            #expect(r.initialBearing >= 0 && r.initialBearing < 360)
            #expect(r.finalBearing >= 0 && r.finalBearing < 360)
        }
    }

    @Test func identicalPointsAreZeroApart() async {
        await propertyCheck(count: 500, input: Self.latitude, Self.longitude) { lat, lon in
            let p = Coordinate(latitude: lat, longitude: lon)
            #expect(p.distance(to: p) == 0)
            #expect((0..<360).contains(p.bearing(to: p)))
        }
    }

    /// direct then inverse gives back the distance and bearing (lines shorter
    /// than half the polar circumference are always shortest).
    @Test func directThenInverseRoundTrips() async {
        let distance = Gen.double(in: 0.001...19_000_000)
        await propertyCheck(count: 2000, input: Self.latitude, Self.longitude, Self.bearing, distance) {
            lat, lon, brg, s in
            let start = Coordinate(latitude: lat, longitude: lon)
            let end = Geodesic.direct(from: start, bearing: brg, distance: s)
            #expect(end.isValid)
            let back = Geodesic.inverse(start, end)
            // 10 µm: the short-line path (chords < 50 km) is good to ~2 µm, the rest to ~10 nm.
            #expect(abs(back.distance - s) <= 1e-5, "\(start) \(brg)° \(s) m")
            if abs(lat) < 89.99 && s > 1 && s < 18_000_000 {
                #expect(angleError(back.initialBearing, brg) <= 1e-6, "\(start) \(brg)° \(s) m")
            }
        }
    }

    /// Short lines (the proximity engine's case) round-trip to 0.1 mm, and a
    /// point placed with the inverse's bearing lands on the target.
    @Test func shortLinesRoundTrip() async {
        let distance = Gen.double(in: 0...20_000)
        await propertyCheck(count: 2000, input: Self.latitude, Self.longitude, Self.bearing, distance) {
            lat, lon, brg, s in
            let start = Coordinate(latitude: lat, longitude: lon)
            let end = Geodesic.direct(from: start, bearing: brg, distance: s)
            let line = Geodesic.inverse(start, end)
            #expect(abs(line.distance - s) <= 1e-4)
            let again = Geodesic.direct(from: start, bearing: line.initialBearing, distance: line.distance)
            #expect(Geodesic.inverse(again, end).distance <= 1e-4, "\(start) \(brg)° \(s) m")
        }
    }
}
