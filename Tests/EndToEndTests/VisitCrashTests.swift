import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Visits survive kill -9: nothing lost, nothing counted twice when the drive is replayed.
@Suite(.offCooperativePool, .serialized) struct VisitCrashTests {
    // Two bundled Big Things in Coffs Harbour, on one straight drive.
    let windmill = (id: "halans:ab12c4892e", lat: -30.304254, lon: 153.101708)
    let banana = (id: "halans:d0577fb8cf", lat: -30.274764, lon: 153.133797)

    /// A drive through the windmill towards the banana (in the feeder's own flat model, so the
    /// line passes through both), starting 500 m before the windmill.
    var track: SyntheticTrack {
        let k = cos(windmill.lat * .pi / 180)
        let north = (banana.lat - windmill.lat) * 111_320, east = (banana.lon - windmill.lon) * 111_320 * k
        let bearing = atan2(east, north) * 180 / .pi
        let back = 500.0
        let lat = windmill.lat - back * cos(bearing * .pi / 180) / 111_320
        let lon = windmill.lon - back * sin(bearing * .pi / 180) / (111_320 * k)
        return SyntheticTrack(start: (lat, lon), bearing: bearing, speed: 20)
    }

    func visits(_ db: String) throws -> [[String: Any]] {
        let r = try Subprocess.run(Binaries.url("hotcold"), ["visits", "--db", db, "--json"])
        try #require(r.status == 0, "\(r.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    @Test func killNineBetweenArrivalsLosesNothingAndDuplicatesNothing() throws {
        let dir = try TemporaryDirectory("visits")
        defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        let args = { (gpsd: GPSDHarness) in
            ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", self.windmill.id, "--target", self.banana.id]
        }

        // First run: arrive at the windmill, then kill -9 before the banana.
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let first = try DaemonProcess(arguments: args(gpsd))
        let c1 = try first.connect()
        try c1.send(#"{"cmd":"watch","classes":["ARRIVED"]}"#)
        _ = try c1.read(class: "WATCH")
        try c1.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.02)
        feeder.start()
        let a = try c1.read(class: "ARRIVED", timeout: 20)
        first.signal(SIGKILL)
        feeder.stop()
        _ = first.waitForExit(timeout: 30)
        #expect((a["target"] as? [String: Any])?["id"] as? String == windmill.id)
        let afterCrash = try visits(db)
        #expect(afterCrash.count == 1, "\(afterCrash)")

        // Second run on the same database: the same drive from the start arrives at both.
        let second = try DaemonProcess(arguments: args(gpsd))
        let c2 = try second.connect()
        try c2.send(#"{"cmd":"watch","classes":["ARRIVED"]}"#)
        _ = try c2.read(class: "WATCH")
        try c2.waitUntilGPSDConnected()
        let again = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.02)
        again.start()
        var arrived: [String] = []
        while arrived.count < 2 {
            let e = try c2.read(class: "ARRIVED", timeout: 30)
            arrived.append(((e["target"] as? [String: Any])?["id"] as? String) ?? "?")
        }
        again.stop()
        second.stop()
        first.dir.remove()
        #expect(arrived == [windmill.id, banana.id])
        let all = try visits(db)
        let ids = all.compactMap { ($0["place"] as? [String: Any])?["id"] as? String }
        #expect(all.count == 2, "\(all)")
        #expect(Set(ids) == [windmill.id, banana.id], "\(all)")
    }

}
