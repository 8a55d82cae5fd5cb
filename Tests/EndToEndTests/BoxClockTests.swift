import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// A box without a real-time clock boots years in the past, and recordings carry their own
/// dates (issue 25): a fix's age is measured on the daemon's monotonic clock from its arrival,
/// never by comparing the receiver's clock with the box's. The receiver here says 2025-01-01
/// (the synthetic track's time); the box's clock is this machine's, or five years behind it
/// (`faketime`, preloaded into a real `hotcoldd`), or three years ahead.
@Suite(.offCooperativePool, .serialized) struct BoxClockTests {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
    static let faketime = "/usr/bin/faketime"

    @Test(arguments: [nil, "-5y", "+3y"])
    func aFixIsFreshWhateverTheBoxClockSays(_ offset: String?) throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let p = track.point(second: 600)
        let flags = ["--gpsd", "127.0.0.1:\(gpsd.port)", "--target=\(p.latitude),\(p.longitude),Far Thing"]
        var wrapper: [String] = []
        if let offset {
            try #require(FileManager.default.fileExists(atPath: Self.faketime), "faketime is installed by scripts/setup")
            wrapper = [Self.faketime, "-f", offset]
        }
        // The wall clock moves; the monotonic clock, which ages are measured on, does not.
        let daemon = try DaemonProcess(arguments: flags, environment: ["FAKETIME_DONT_FAKE_MONOTONIC": "1"], wrapper: wrapper)
        defer { daemon.stop() }
        let c = try daemon.connect()
        try c.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.2)
        feeder.start()
        defer { feeder.stop() }

        // Wait for a few fixes, then judge the latest STATUS.
        var status: StatusReply?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let s = try c.call(.status, expecting: StatusReply.self)
            if s.counters.fixesAccepted >= 3, s.gps.lastFix != nil { status = s; break }
            usleep(50_000)
        }
        let s = try #require(status, "no fixes reached the daemon")
        let f = try #require(s.gps.lastFix)
        let age = try #require(f.ageS, "STATUS last_fix carries age_s")
        #expect(age < 5, "a fix that just arrived is \(age) s old, whatever the clocks say")
        #expect(s.gps.state == "fix", "\(s.gps)")
        // The offset is reported, as a claim about the clocks, with the right sign.
        let offsetS = try #require(f.clockOffsetS)
        let boxYear = Calendar(identifier: .gregorian).component(.year, from: s.time)
        #expect(abs(offsetS) > 86_400 * 30, "clock_offset_s \(offsetS) with the box in \(boxYear)")
        #expect((offsetS > 0) == (boxYear < 2025), "clock_offset_s \(offsetS) with the box in \(boxYear)")
        // And `hotcold status` says so in words.
        let text = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", daemon.socketPath])
        #expect(text.stdout.contains("clock off by"), "\(text.stdout)")
        #expect(text.stdout.contains(" s ago"), "\(text.stdout)")
    }

    /// A friend whose clock is far from ours (the bundled demo drive's 2019 dates, a phone a
    /// day out) is on the radar, fresh, and keeps its own intervals.
    @Test func aFriendDatedYearsAgoIsOnTheRadarAndFresh() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        let jane = try #require(FriendID(parsing: "jane/ute"))
        _ = try c.call(.follow(FollowRequest(who: jane)), expecting: OKReply.self)
        let then = try #require(ISO8601.parse("2019-03-02T07:25:04.000Z"))
        for i in 0..<3 {
            let fix = FriendFixRequest(who: jane, name: "Jane", time: then.addingTimeInterval(Double(i)),
                                       lat: -30.27 + Double(i) * 0.0001, lon: 153.13, accuracyM: 5, speedMps: 10)
            #expect(try c.call(.friendFix(fix), expecting: OKReply.self).ok)
        }
        let s = try c.call(.status, expecting: StatusReply.self)
        let friend = try #require(s.friends?.first { $0.who == "jane/ute" }, "\(String(describing: s.friends))")
        #expect(!friend.stale && friend.ageS < 5, "\(friend)")
    }
}
