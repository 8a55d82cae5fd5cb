import Foundation
import HotColdDaemonTesting
import Testing
@testable import HotColdCore

/// The solutions against Karney's reference geodesics (GeodTest-short, 10,000
/// rows, distances exact to 0.1 nm). Prints the worst error per row group.
@Suite(.offCooperativePool) struct GeodesicReferenceTests {
    @Test func fileIsComplete() {
        #expect(GeodTestData.rows.count == 10_000)
    }

    /// Distance: <= 0.1 mm on rows shorter than 1,000 km, <= 1 mm on every row.
    /// Bearings: <= 1e-8° where well conditioned (|m12| > 1 km), and everywhere
    /// the sideways miss they cause at the far end (|m12| δazi) <= 1 µm.
    @Test func inverseMatchesReference() {
        var report: [String] = []
        for group in GeodTestData.groups {
            var maxDist = 0.0, maxAzi = 0.0, worstRow = -1
            var maxSideways = 0.0, maxAziConditioned = 0.0, maxAzi2 = 0.0
            for row in GeodTestData.rows[group.range] {
                let r = Geodesic.inverse(
                    Coordinate(latitude: row.lat1, longitude: row.lon1),
                    Coordinate(latitude: row.lat2, longitude: row.lon2))
                let err = abs(r.distance - row.s12)
                #expect(!err.isNaN, "row \(row.index) gave NaN")
                let limit = row.s12 < 1_000_000 ? 1e-4 : 1e-3
                #expect(err <= limit, "row \(row.index): distance off by \(err) m")
                if err > maxDist { maxDist = err; worstRow = row.index }

                #expect(r.initialBearing >= 0 && r.initialBearing < 360)
                #expect(r.finalBearing >= 0 && r.finalBearing < 360)
                let aziErr = angleError(r.initialBearing, row.azi1)
                let sideways = abs(row.m12) * aziErr * .pi / 180
                maxAzi = max(maxAzi, aziErr)
                maxSideways = max(maxSideways, sideways)
                if abs(row.m12) > 1000 { maxAziConditioned = max(maxAziConditioned, aziErr) }
                let azi2Err = angleError(r.finalBearing, row.azi2)
                maxAzi2 = max(maxAzi2, azi2Err)
                // A bearing is only as well defined as the end point is sensitive
                // to it: m12 (metres per radian) is ~0 for (nearly) conjugate
                // points such as antipodes, where any azimuth nearly works.
                if abs(row.m12) > 1000 {
                    #expect(aziErr <= 1e-8, "row \(row.index): azi1 off by \(aziErr)°")
                    #expect(azi2Err <= 1e-8, "row \(row.index): azi2 off by \(azi2Err)°")
                }
                #expect(sideways <= 1e-6, "row \(row.index): azi1 error misses the end by \(sideways) m")
                #expect(abs(row.m12) * azi2Err * .pi / 180 <= 1e-6, "row \(row.index): azi2")
            }
            report.append(String(
                format: "  %@ distance %.3e m (row %d); azi1 %.3e° (%.3e° where |m12| > 1 km), as sideways miss m12·δazi1 %.3e m; azi2 %.3e°",
                group.name.padding(toLength: 26, withPad: " ", startingAt: 0), maxDist, worstRow, maxAzi, maxAziConditioned, maxSideways, maxAzi2))
        }
        print("GeodTest-short inverse, max error per group:\n" + report.joined(separator: "\n"))
    }

    /// The full solution alone (bypassing the short-line path) on every row.
    @Test func fullSolutionMatchesReference() {
        var worst = 0.0
        for row in GeodTestData.rows {
            let r = KarneyInverse.solve(lat1: row.lat1, lon1: row.lon1, lat2: row.lat2, lon2: row.lon2)
            let err = abs(r.s12 - row.s12)
            worst = max(worst, err)
            #expect(err <= (row.s12 < 1_000_000 ? 1e-4 : 1e-3), "row \(row.index): \(err) m")
        }
        print(String(format: "GeodTest-short full inverse: max distance error %.3e m", worst))
    }

    /// Direct: from (lat1, lon1, azi1, s12) reach (lat2, lon2) within 1e-9°
    /// (longitude scaled by cos lat2, since it is meaningless at a pole).
    @Test func directMatchesReference() {
        var report: [String] = []
        for group in GeodTestData.groups {
            var maxLat = 0.0, maxLon = 0.0
            for row in GeodTestData.rows[group.range] {
                let p = Geodesic.direct(
                    from: Coordinate(latitude: row.lat1, longitude: row.lon1),
                    bearing: row.azi1, distance: row.s12)
                let dLat = abs(p.latitude - row.lat2)
                let dLon = angleError(p.longitude, row.lon2) * cos(row.lat2 * .pi / 180)
                #expect(p.isValid, "row \(row.index): \(p)")
                #expect(dLat <= 1e-9 && dLon <= 1e-9, "row \(row.index): off by \(dLat)°, \(dLon)°")
                maxLat = max(maxLat, dLat); maxLon = max(maxLon, dLon)
            }
            report.append(String(
                format: "  %@ lat %.3e°, lon·cos(lat) %.3e°", group.name.padding(toLength: 26, withPad: " ", startingAt: 0), maxLat, maxLon))
        }
        print("GeodTest-short direct, max error per group:\n" + report.joined(separator: "\n"))
    }
}
