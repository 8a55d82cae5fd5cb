import Foundation
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `things --sort distance` measures from the daemon's fix, as `near` does (issue 31); offline,
/// or before a fix, it asks for --at in a sentence.
@Suite(.offCooperativePool) struct ThingsByDistanceTests {
    @Test func distancesComeFromTheCarWithoutAt() throws {
        let gpsd = try GPSDHarness.udp()
        // Parked beside the Big Banana, Coffs Harbour.
        let track = SyntheticTrack(start: (-30.2750, 153.1335), bearing: 0, speed: 0)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
        defer { daemon.stop(); gpsd.terminate() }
        let c = try daemon.connect()
        try c.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try c.call(.status, expecting: StatusReply.self)).gps.lastFix == nil { usleep(50_000) }

        let r = try Subprocess.run(Binaries.url("hotcold"), ["things", "--state", "NSW", "--sort", "distance", "--socket", daemon.socketPath])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try #require(r.stdout.split(separator: "\n").first.map(String.init))
        #expect(first.contains("Big Banana") && first.contains(" m"), "nearest first, with its distance: \(first)")

        let offline = try TemporaryDirectory("things-distance")
        defer { offline.remove() }
        let noPoint = try Subprocess.run(Binaries.url("hotcold"), ["things", "--sort", "distance", "--db", offline.path("x.sqlite")])
        #expect(noPoint.status == 64 && noPoint.stderr.contains("give --at LAT,LON"), "\(noPoint.stderr)")
    }
}
