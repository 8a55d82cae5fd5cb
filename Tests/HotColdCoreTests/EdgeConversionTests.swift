import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// What a broken or hostile source can put into a `Fix`, a time or a distance, and what comes
/// out: unknown figures instead of absurd ones, and text instead of a trap.
@Suite(.offCooperativePool) struct EdgeConversionTests {
    static let t = Date(timeIntervalSince1970: 1_735_689_600)

    @Test(arguments: [-5.0, -0.001, .nan, .infinity, -.infinity, 1e300, -1e300, 4e7])
    func absurdErrorFiguresSpeedAndTrackAreUnknown(_ v: Double) {
        let fix = Fix(time: Self.t, coordinate: Coordinate(latitude: -30, longitude: 153), mode: .threeD,
                      epx: v, epy: v, eph: v, hdop: v, speed: v, track: v, altitude: v.isFinite ? v * 1e9 : v,
                      satellites: v.isFinite ? (v < 0 ? -5 : 1000) : nil)
        #expect(fix.epx == nil && fix.epy == nil && fix.eph == nil && fix.hdop == nil)
        #expect(fix.speed == nil && fix.track == nil && fix.altitude == nil && fix.satellites == nil)
        #expect(fix.horizontalError == nil)
        #expect(fix.hasPosition)
    }

    @Test func plausibleFiguresAreKept() {
        let fix = Fix(time: Self.t, coordinate: nil, mode: .twoD, epx: 0, epy: 3, eph: 20_000_000,
                      hdop: 99.99, speed: 514, track: 359.9, altitude: -400, satellites: 24)
        #expect(fix.epx == 0 && fix.epy == 3 && fix.eph == 20_000_000 && fix.hdop == 99.99)
        #expect(fix.speed == 514 && fix.track == 359.9 && fix.altitude == -400 && fix.satellites == 24)
    }

    @Test func gpsTimeBounds() {
        #expect(FixBounds.isPlausible(time: 315_964_800))                 // 1980-01-06, the GPS epoch
        #expect(!FixBounds.isPlausible(time: 315_964_799))
        #expect(FixBounds.isPlausible(time: 4_102_444_800))               // 2100
        #expect(!FixBounds.isPlausible(time: 7_258_118_400))              // 2200
        #expect(!FixBounds.isPlausible(time: -2_208_988_800))             // 1900
        #expect(!FixBounds.isPlausible(time: .nan))
    }

    @Test(arguments: [1e300, -1e300, .infinity, -.infinity, .nan, 9.3e15, -9.3e15])
    func isoFormatNeverTrapsAndKeepsFourDigitYears(_ seconds: Double) {
        let s = ISO8601.format(Date(timeIntervalSince1970: seconds))
        #expect(s.count == 24, "\(s)")
        #expect(s.hasPrefix("9999-12-31T23:59:59.999Z") || s.hasPrefix("0000-01-01T00:00:00.000Z"), "\(s)")
    }

    @Test func hugeDistancesFormatWithoutTrapping() {
        // The parser reads the text; callers range-check (so "1e306km" is out of range, not malformed).
        #expect(DistanceParser.metres("1e306km") == .infinity)
        #expect(DistanceParser.metres("inf") == nil)
        #expect(DistanceFormat.text(1e300) == "1e+297 km")
        #expect(DistanceFormat.text(12_345) == "12 km")
    }

    @Test func geodesyOnNaNOrInfiniteCoordinatesDoesNotTrap() {
        let good = Coordinate(latitude: -30, longitude: 153)
        for bad in [Coordinate(latitude: .nan, longitude: 153), Coordinate(latitude: -30, longitude: .infinity),
                    Coordinate(latitude: .infinity, longitude: -.infinity)] {
            #expect(!good.distance(to: bad).isFinite || good.distance(to: bad) >= 0)
        }
    }
}
