import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A friend's phone running OwnTracks, followed through the OwnTracks layout: its `_type:location`
/// messages (as the app publishes them, retained, with drift and scatter while it lies on a
/// café table) reach the radar through the bridge, and a still phone never makes the car hotter.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsPhoneTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 0)

    @Test func aStillPhoneWithRealisticNoiseNeverMakesTheCarHotter() throws {
        let dir = try TemporaryDirectory("friends-phone")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: [])
        defer { daemon.stop() }
        let client = try LineClient(path: dir.path("hc.sock"))
        try client.send(#"{"cmd":"follow","who":"t/phone"}"#)
        #expect(try client.read(class: "RESULT")["ok"] as? Bool == true)
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car")
        defer { bridge.stop() }
        let deadline = Date().addingTimeInterval(20)
        while bridge.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(100_000) }
        try #require(!bridge.lines(containing: "following 1 device").isEmpty, "\(bridge.stderr)")
        try client.waitUntilGPSDConnected()

        // The car stands at the origin; the phone lies 400 m east, wandering (a random walk of
        // ~1.5 m a second, held within 25 m) with 4 m of scatter on top, reporting 10–30 m accuracy.
        let cos0 = cos(-30.30 * .pi / 180)
        var rng = SeededRandom(seed: 19)
        var drift = (x: 0.0, y: 0.0)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for second in 0..<45 {
            let time = start.addingTimeInterval(Double(second))
            try gpsd.send([NMEA.rmc(time: time, latitude: -30.30, longitude: 153.10), NMEA.gga(time: time, latitude: -30.30, longitude: 153.10)]
                .map { $0 + "\r\n" }.joined())
            drift.x = max(-25, min(25, drift.x + 1.5 * rng.gaussian()))
            drift.y = max(-25, min(25, drift.y + 1.5 * rng.gaussian()))
            let east = 400 + drift.x + 4 * rng.gaussian(), north = drift.y + 4 * rng.gaussian()
            let lat = -30.30 + north / 111_320, lon = 153.10 + east / (111_320 * cos0)
            let acc = Int(rng.uniform(10, 30))
            let payload = #"{"_type":"location","lat":\#(lat),"lon":\#(lon),"tst":\#(Int(time.timeIntervalSince1970)),"acc":\#(acc),"vel":0,"tid":"ph","batt":71}"#
            let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                                       ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", "owntracks/t/phone", "-m", payload])
            try #require(r.status == 0, "mosquitto_pub: \(r.stderr)")
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second + 1)).timeIntervalSinceNow))
        }
        usleep(500_000)
        let friendEvents = logEvents(dir).compactMap(LineClient.object).filter {
            ($0["target"] as? [String: Any])?["id"] as? String == "friend:t/phone"
        }
        // The phone is on the radar (through the OwnTracks layout) at about 400 m…
        let proximity = friendEvents.filter { $0["class"] as? String == "PROXIMITY" }
        try #require(!proximity.isEmpty, "no PROXIMITY for the phone; bridge: \(bridge.stderr)")
        #expect(proximity.allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 400) < 60 })
        // …and never hotter (nor colder), never arrived.
        #expect(!proximity.contains { ["hotter", "colder"].contains($0["trend"] as? String ?? "") },
                "\(proximity.map { "\($0["trend"] ?? "?") \($0["distance_m"] ?? "?")" })")
        #expect(!friendEvents.contains { $0["class"] as? String == "ARRIVED" })
        let status = try client.call(.status, expecting: StatusReply.self)
        #expect(status.friends?.first?.who == "t/phone")
    }
}
