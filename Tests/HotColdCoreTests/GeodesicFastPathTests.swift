import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdCore


/// The short-line path (chord-to-arc) must agree with Karney's full solution
/// to 0.1 mm wherever it is used.
@Suite(.offCooperativePool) struct GeodesicFastPathTests {
    /// 200,000 seeded random lines up to just past the fast path's limit, all
    /// over the globe (poles included), lengths spread over 1 mm ... 60 km.
    @Test func agreesWithFullSolutionOnRandomShortLines() {
        var rng = SeededRandom(seed: 20_130_101)
        var maxDist = 0.0, maxAzi = 0.0, maxSideways = 0.0, used = 0
        for i in 0..<200_000 {
            // Uniform on the sphere, plus every 50th start near a pole.
            let lat = i % 50 == 0
                ? (Bool.random(using: &rng) ? 1 : -1) * Double.random(in: 89.9...90, using: &rng)
                : asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi
            let lon = Double.random(in: -180...180, using: &rng)
            let length = pow(10, Double.random(in: -3...log10(60_000), using: &rng))
            let brg = Double.random(in: 0..<360, using: &rng)
            let start = Coordinate(latitude: lat, longitude: lon)
            let end = Geodesic.direct(from: start, bearing: brg, distance: length)
            guard let fast = ShortLine.inverse(
                lat1: start.latitude, lon1: start.longitude, lat2: end.latitude, lon2: end.longitude)
            else {
                #expect(length > 49_000, "short line of \(length) m not taken by the fast path")
                continue
            }
            used += 1
            let full = KarneyInverse.solve(
                lat1: start.latitude, lon1: start.longitude, lat2: end.latitude, lon2: end.longitude)
            let dErr = abs(fast.s12 - full.s12)
            #expect(dErr <= 1e-4, "line \(i), \(length) m: fast path off by \(dErr) m")
            maxDist = max(maxDist, dErr)
            if length > 1 {
                // Azimuths: compare as the sideways miss they cause at the far end.
                let aziErr = max(angleError(fast.azi1, full.azi1), angleError(fast.azi2, full.azi2))
                maxAzi = max(maxAzi, aziErr)
                let sideways = aziErr * .pi / 180 * length
                maxSideways = max(maxSideways, sideways)
                // Rounding in the chord (~1e-9 m) dominates below ~10 m.
                #expect(aziErr <= 2e-7, "line \(i), \(length) m: azimuth off by \(aziErr)°")
                #expect(sideways <= 2e-5, "line \(i), \(length) m: azimuth misses by \(sideways) m")
            }
        }
        #expect(used > 150_000)
        print(String(
            format: "fast path vs full, %d random lines <= 50 km: distance %.3e m, azimuth %.3e° (sideways %.3e m)",
            used, maxDist, maxAzi, maxSideways))
    }

    /// Rows 3000-3999 of GeodTest-short (5.8 m - 1.1 km) all take the fast path
    /// and match the reference to 0.1 mm (in practice to nanometres).
    @Test func shortReferenceRowsTakeTheFastPath() {
        var maxDist = 0.0, maxAzi = 0.0
        for row in GeodTestData.rows[3000..<4000] {
            guard let fast = ShortLine.inverse(lat1: row.lat1, lon1: row.lon1, lat2: row.lat2, lon2: row.lon2)
            else {
                Issue.record("row \(row.index) (\(row.s12) m) not taken by the fast path")
                continue
            }
            let err = abs(fast.s12 - row.s12)
            #expect(err <= 1e-4, "row \(row.index): off by \(err) m")
            maxDist = max(maxDist, err)
            maxAzi = max(maxAzi, angleError(fast.azi1, row.azi1), angleError(fast.azi2, row.azi2))
        }
        #expect(maxAzi <= 1e-7)
        print(String(format: "fast path on GeodTest rows 3000-3999: distance %.3e m, azimuth %.3e°", maxDist, maxAzi))
    }

    /// Coincident points: zero distance, bearings in range (their value is arbitrary).
    @Test func coincidentPoints() {
        for p in [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: -33.86, longitude: 151.21),
                  Coordinate(latitude: 90, longitude: 45), Coordinate(latitude: -90, longitude: -180)] {
            let r = Geodesic.inverse(p, p)
            #expect(r.distance == 0)
            #expect((0..<360).contains(r.initialBearing) && (0..<360).contains(r.finalBearing))
        }
    }
}
