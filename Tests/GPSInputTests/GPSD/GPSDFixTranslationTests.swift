import CGPS
import Foundation
@testable import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

/// The gps_data_t → GPSDEvent translation on hand-made structs: what gpsd 3.22 leaves as NaN,
/// a SKY after a TPV, a TPV without time, a mode gpsd should never send.
@Suite("gps_data_t translation", .offCooperativePool)
struct GPSDFixTranslationTests {
    /// When the reports in these tests were read (any instant: it is carried, not used).
    static let readAt = ContinuousClock.now

    /// A zeroed gps_data_t on the heap with every fix field NaN, as libgps leaves an empty TPV.
    final class Data {
        let p = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        init() {
            UnsafeMutableRawPointer(p).initializeMemory(
                as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
            let nan = Double.nan
            p.pointee.fix.latitude = nan; p.pointee.fix.longitude = nan
            p.pointee.fix.epx = nan; p.pointee.fix.epy = nan; p.pointee.fix.eph = nan
            p.pointee.fix.speed = nan; p.pointee.fix.track = nan
            p.pointee.fix.altMSL = nan; p.pointee.fix.altHAE = nan; p.pointee.fix.geoid_sep = nan
            p.pointee.dop.hdop = nan
        }
        deinit { p.deallocate() }
        func input(skySeen: Bool = false) -> GPSDEvent? {
            GPSDFixTranslation.input(from: p, skySeen: skySeen, receivedAt: GPSDFixTranslationTests.readAt)
        }
    }

    let tpv = gps_mask_t(STATUS_SET | MODE_SET) | gps_mask_t(PACKET_SET)

    @Test("a TPV with only time and mode: every unknown is nil, nothing is NaN")
    func nanBecomesNil() throws {
        let d = Data()
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET)
        d.p.pointee.fix.mode = 3
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_600, tv_nsec: 500_000_000)
        guard case .fix(let fix, let at) = d.input(skySeen: true) else {
            Issue.record("expected a fix"); return
        }
        #expect(at == GPSDFixTranslationTests.readAt)
        #expect(fix.time == Date(timeIntervalSince1970: 1_735_689_600.5))
        #expect(fix.mode == .threeD)
        #expect(fix.coordinate == nil)
        #expect([fix.epx, fix.epy, fix.eph, fix.hdop, fix.speed, fix.track, fix.altitude]
            .allSatisfy { $0 == nil })
        #expect(fix.satellites == nil)
        #expect(!fix.hasPosition)
    }

    @Test("a full TPV: position, errors, speed, track, altitude from altHAE when altMSL is NaN")
    func fullTPV() {
        let d = Data()
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET | LATLON_SET | ALTITUDE_SET | SPEED_SET | TRACK_SET)
        d.p.pointee.fix.mode = 2
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_601, tv_nsec: 0)
        d.p.pointee.fix.latitude = -33.8568
        d.p.pointee.fix.longitude = 151.2153
        d.p.pointee.fix.epx = 3; d.p.pointee.fix.epy = 4; d.p.pointee.fix.eph = 5
        d.p.pointee.fix.speed = 1.5; d.p.pointee.fix.track = 270
        d.p.pointee.fix.altHAE = 47.4; d.p.pointee.fix.geoid_sep = 22.4
        d.p.pointee.satellites_used = 7
        d.p.pointee.dop.hdop = 0.9
        guard case .fix(let fix, _) = d.input(skySeen: true) else {
            Issue.record("expected a fix"); return
        }
        #expect(fix.coordinate == Coordinate(latitude: -33.8568, longitude: 151.2153))
        #expect(fix.mode == .twoD)
        #expect(fix.epx == 3 && fix.epy == 4 && fix.eph == 5)
        #expect(fix.speed == 1.5 && fix.track == 270)
        #expect(abs(fix.altitude! - 25.0) < 1e-9)
        #expect(fix.satellites == 7 && fix.hdop == 0.9)
        // Before any SKY on this connection, SKY-borne figures are unknown.
        guard case .fix(let early, _) = d.input(skySeen: false) else { return }
        #expect(early.satellites == nil && early.hdop == nil)
    }

    @Test("not a TPV (SKY, VERSION, WATCH): no report, even with a stale fix in the struct")
    func notATPV() {
        let d = Data()
        d.p.pointee.fix.mode = 3
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_600, tv_nsec: 0)
        d.p.pointee.fix.latitude = 1; d.p.pointee.fix.longitude = 2
        for set in [SATELLITE_SET, VERSION_SET, POLICY_SET, DEVICELIST_SET] {
            d.p.pointee.set = gps_mask_t(set) | gps_mask_t(PACKET_SET)
            #expect(d.input() == nil)
        }
    }

    @Test("a TPV without time is .untimed; a mode outside 0…3 is no fix")
    func untimedAndOddMode() {
        let d = Data()
        d.p.pointee.set = tpv
        d.p.pointee.fix.mode = 1
        #expect(d.input() == .untimed(mode: .noFix, receivedAt: GPSDFixTranslationTests.readAt))
        d.p.pointee.fix.mode = 7
        #expect(d.input() == .untimed(mode: .noFix, receivedAt: GPSDFixTranslationTests.readAt))
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET | LATLON_SET)
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_600, tv_nsec: 0)
        d.p.pointee.fix.latitude = .infinity; d.p.pointee.fix.longitude = 2
        guard case .fix(let fix, _) = d.input() else { Issue.record("expected a fix"); return }
        #expect(fix.mode == .noFix && fix.coordinate == nil)
    }

    @Test("absurd error figures, speed, track, DOP and satellites from gpsd are unknown",
          arguments: [-5.0, .nan, .infinity, -.infinity, 1e300, -1e300])
    func absurdFiguresAreUnknown(_ v: Double) {
        let d = Data()
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET | LATLON_SET)
        d.p.pointee.fix.mode = 3
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_600, tv_nsec: 0)
        d.p.pointee.fix.latitude = -30.3; d.p.pointee.fix.longitude = 153.1
        d.p.pointee.fix.epx = v; d.p.pointee.fix.epy = v; d.p.pointee.fix.eph = v
        d.p.pointee.fix.speed = v; d.p.pointee.fix.track = v; d.p.pointee.fix.altMSL = v.isFinite ? v * 1e9 : v
        d.p.pointee.dop.hdop = v
        d.p.pointee.satellites_used = v < 0 ? -5 : 100_000
        guard case .fix(let fix, _) = d.input(skySeen: true) else { Issue.record("expected a fix"); return }
        #expect(fix.hasPosition)
        #expect([fix.epx, fix.epy, fix.eph, fix.hdop, fix.speed, fix.track, fix.altitude].allSatisfy { $0 == nil })
        #expect(fix.satellites == nil && fix.horizontalError == nil)
    }

    @Test("positions outside ±90°/±180° or NaN, and modes outside 0…3, are no fix",
          arguments: [(91.0, 153.1, Int32(3)), (-30.3, 200, 3), (.nan, 153.1, 3), (-30.3, -.infinity, 2),
                      (-90.000001, 0, 3), (-30.3, 153.1, 7), (-30.3, 153.1, -3), (-30.3, 153.1, Int32.max)])
    func impossiblePositionsAreNoFix(_ lat: Double, _ lon: Double, _ mode: Int32) {
        let d = Data()
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET | LATLON_SET)
        d.p.pointee.fix.mode = mode
        d.p.pointee.fix.time = timespec(tv_sec: 1_735_689_600, tv_nsec: 0)
        d.p.pointee.fix.latitude = lat; d.p.pointee.fix.longitude = lon
        guard case .fix(let fix, _) = d.input() else { Issue.record("expected a timed report"); return }
        #expect(fix.coordinate == nil && !fix.hasPosition)
        if !(0...3).contains(mode) { #expect(fix.mode == .noFix) }
    }

    @Test("times that are no GPS time (1900, 2200, year 99999, bad nanoseconds) are untimed",
          arguments: [(-2_208_988_800, 0), (7_258_118_400, 0), (253_370_678_400, 0), (Int.max, 0), (Int.min, 0),
                      (1_735_689_600, -1), (1_735_689_600, 1_000_000_000), (315_964_799, 0)])
    func implausibleTimesAreUntimed(_ seconds: Int, _ nanoseconds: Int) {
        let d = Data()
        d.p.pointee.set = tpv | gps_mask_t(TIME_SET | LATLON_SET)
        d.p.pointee.fix.mode = 3
        d.p.pointee.fix.time = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        d.p.pointee.fix.latitude = -30.3; d.p.pointee.fix.longitude = 153.1
        #expect(d.input() == .untimed(mode: .threeD, receivedAt: GPSDFixTranslationTests.readAt))
    }
}
