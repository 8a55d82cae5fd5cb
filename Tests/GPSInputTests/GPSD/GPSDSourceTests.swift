import Foundation
import GPSInput
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// GPSDSource against real gpsd processes on free loopback ports (no mocks).
@Suite("GPSDSource with a real gpsd", .offCooperativePool, .enabled(if: GPSDHarness.gpsdAvailable))
struct GPSDSourceTests {
    static let sydney = (latitude: -33.8568, longitude: 151.2153)

    /// The lines of a recorded log without its `#` header, each with CR LF.
    static func logSentences(_ name: String) throws -> [String] {
        try String(contentsOf: TestData.url("gpsd-logs/\(name)"), encoding: .isoLatin1)
            .split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }
            .map { $0 + "\r\n" }
    }

    @Test("a recorded log fed to gpsd over UDP gives exactly gpsd 3.22's TPV positions")
    func replaysRecordedLogOverUDP() throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let source = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }
        #expect(inbox.wait(timeout: 10) { $0.contains { $0.input.isConnected } })

        let expected = try RecordedTPV.load(
            TestData.url("gpsd-logs/replay-gpsd-3.22/sl869.log.tpv.jsonl")).filter { $0.timeMs != nil }
        for sentence in try Self.logSentences("sl869.log") {
            try gpsd.send(sentence)
            usleep(2_000)
        }
        let lastMs = try #require(expected.last?.timeMs)
        let reachedEnd = inbox.wait(timeout: 15) { entries in
            entries.contains { $0.input.fix?.time.millisecondsSince1970 == lastMs }
        }
        #expect(reachedEnd)
        let fixes = inbox.fixes
        #expect(fixes.allSatisfy { $0.hasNoNaN })
        #expect(fixes.map(\.time.millisecondsSince1970) == expected.map { $0.timeMs! })
        for (fix, tpv) in zip(fixes, expected) {
            #expect(fix.mode.rawValue == tpv.mode)
            #expect(fix.coordinate?.latitude == tpv.latitude)
            #expect(fix.coordinate?.longitude == tpv.longitude)
        }
        #expect(!inbox.all.contains { $0.input.isLost })
    }

    @Test("gpsfake replaying a walk: every fix matches gpsd 3.22's TPV for the same time",
          .enabled(if: GPSDHarness.gpsfakeAvailable))
    func replaysRecordedLogThroughGpsfake() throws {
        let gpsd = try GPSDHarness.gpsfake(
            log: TestData.url("gpsd-logs/haicom-305N.log"), cycle: 0.01)
        defer { gpsd.terminate() }
        let source = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }

        let recorded = try RecordedTPV.load(
            TestData.url("gpsd-logs/replay-gpsd-3.22/haicom-305N.log.tpv.jsonl"))
        var byTime: [Int64: RecordedTPV] = [:]
        for tpv in recorded { if let t = tpv.timeMs { byTime[t] = tpv } }
        let lastMs = try #require(recorded.compactMap(\.timeMs).max())
        // gpsfake feeds at its own pace and may start before we connect: wait for the end.
        let reachedEnd = inbox.wait(timeout: 30) { entries in
            entries.contains { $0.input.fix?.time.millisecondsSince1970 == lastMs }
        }
        #expect(reachedEnd)
        let fixes = inbox.fixes
        #expect(fixes.count >= 20, "only \(fixes.count) fixes from gpsfake")
        #expect(fixes.allSatisfy { $0.hasNoNaN })
        for fix in fixes {
            let tpv = try #require(byTime[fix.time.millisecondsSince1970],
                                   "no recorded TPV at \(fix.time)")
            #expect(fix.coordinate?.latitude == tpv.latitude)
            #expect(fix.coordinate?.longitude == tpv.longitude)
        }
    }

    @Test("a synthetic track round-trips through gpsd: position, time, speed, track")
    func syntheticTrack() throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let source = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }
        #expect(inbox.wait(timeout: 10) { $0.contains { $0.input.isConnected } })

        let track = SyntheticTrack(start: Self.sydney, bearing: 60, speed: 12)
        for second in 0..<10 {
            for s in track.sentences(second: second) { try gpsd.send(s) }
            usleep(5_000)
        }
        let last = track.point(second: 9).time.millisecondsSince1970
        let reachedEnd = inbox.wait(timeout: 10) { $0.contains { $0.input.fix?.time.millisecondsSince1970 == last } }
        #expect(reachedEnd)
        let fixes = inbox.fixes.filter(\.hasPosition)
        #expect(fixes.count >= 9)
        for fix in fixes {
            let second = Int(fix.time.timeIntervalSince(track.startTime).rounded())
            let p = track.point(second: second)
            #expect(fix.time == p.time)
            #expect(abs(fix.coordinate!.latitude - p.latitude) < 1e-7)
            #expect(abs(fix.coordinate!.longitude - p.longitude) < 1e-7)
            #expect(abs((fix.speed ?? .nan) - 12) < 0.01)
            #expect(abs((fix.track ?? .nan) - 60) < 0.1)
            #expect(fix.hasNoNaN)
            // gpsd reports the first cycle on its RMC alone (2D, no altitude); later ones are 3D.
            if fix.mode == .threeD { #expect(abs((fix.altitude ?? .nan) - 25) < 0.01) }
        }
        #expect(fixes.filter { $0.mode == .threeD }.count >= fixes.count - 1)
    }

    @Test("damaged and odd logs (bad checksums, junk, rollover dates) never yield NaN",
          arguments: ["firefly-II.log", "gp-320fw-2019-04-07-coldboot.log", "triton400.log", "gpsdf.log"])
    func damagedLogs(name: String) throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let source = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }
        #expect(inbox.wait(timeout: 10) { $0.contains { $0.input.isConnected } })
        for sentence in try Self.logSentences(name) {
            try gpsd.send(sentence)
            usleep(1_000)
        }
        try gpsd.send("\u{0}\u{ff}garbage $GPGGA,,,,*00\r\n{\"class\":\"TPV\"}\r\n")
        // A sentinel cycle after the log: once it comes back, everything before it was read.
        let track = SyntheticTrack(start: Self.sydney, startTime: Date(timeIntervalSince1970: 1_767_225_600),
                                   bearing: 0, speed: 0)
        for s in track.sentences(second: 0) + track.sentences(second: 1) { try gpsd.send(s) }
        let sentinel = track.point(second: 1).time.millisecondsSince1970
        let reachedEnd = inbox.wait(timeout: 15) { $0.contains { $0.input.fix?.time.millisecondsSince1970 == sentinel } }
        #expect(reachedEnd)
        #expect(inbox.fixes.allSatisfy { $0.hasNoNaN })
        #expect(!inbox.all.contains { $0.input.isLost })
    }
}
