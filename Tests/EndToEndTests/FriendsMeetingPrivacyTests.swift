import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28: a follower never republishes where it met a friend. A built `hotcoldd` fed by a
/// real gpsd stands at a place (its own ARRIVED) while Ann — her own broker login, the shipped
/// ACL — publishes her position 20 m away: the daemon's radar says ARRIVED at `friend:ann/ute`.
/// Then the car drives off (its own DEPARTED, and the friend's). The built `hotcold-mqtt`
/// publishes the car's own arrival and departure on `…/event`, `…/visit` and `…/arrival`, and
/// nothing about Ann: no event, no visit, no retained arrival, no nearest or state naming her.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsMeetingPrivacyTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)

    /// The daemon's event log, as objects.
    func logLines(_ dir: TemporaryDirectory) -> [[String: Any]] {
        ((try? String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { LineClient.object(String($0)) }
    }

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
    }

    @Test func aMeetingWithAFriendIsNeverPublishedAsTheCarsOwn() throws {
        let dir = try TemporaryDirectory("meeting-privacy")
        defer { dir.remove() }
        for (i, user) in ["t", "ann"].enumerated() {
            try run("/usr/bin/mosquitto_passwd", ["-b"] + (i == 0 ? ["-c"] : []) + [dir.path("passwd"), user, "\(user)-secret"])
        }
        try "t-secret\n".write(toFile: dir.path("t.pw"), atomically: true, encoding: .utf8)
        // The shipped ACL, and the test's own anonymous reader of everything (mosquitto applies
        // a `topic` line before any `user` line to anonymous clients only).
        let shipped = try String(contentsOf: TestData.repo("config/mosquitto-hotcold.acl"), encoding: .utf8)
        try ("topic read #\n" + shipped).write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"])
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let origin = FriendsRealTimeTests.origin
        let place = Geodesic.direct(from: origin, bearing: 0, distance: 30)
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: ["\(place.latitude),\(place.longitude),Roadside Thing"])
        defer { daemon.stop() }
        let follow = try LineClient(path: dir.path("hc.sock"))
        try follow.send(#"{"cmd":"follow","who":"ann/ute"}"#)
        #expect(try follow.read(class: "RESULT", timeout: 10)["ok"] as? Bool == true)
        let mine = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car9/#"])
        defer { mine.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car9",
                                       brokerExtra: [#"username = "t""#, #"password_file = "\#(dir.path("t.pw"))""#])
        defer { bridge.stop() }
        let deadline = Date().addingTimeInterval(20)
        while bridge.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(100_000) }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()

        func logged(_ cls: String, _ id: String) -> Bool {
            logLines(dir).contains { $0["class"] as? String == cls && ($0["target"] as? [String: Any])?["id"] as? String == id }
        }
        // The car stands at the origin, Ann 20 m east of it, until both arrivals are in the
        // daemon's log; then the car drives west until it has left both.
        let annSpot = FriendsRealTimeTests.east(20)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var x = 0.0
        var leaving = false
        for second in 0..<120 {
            let time = start.addingTimeInterval(Double(second))
            let at = Geodesic.direct(from: origin, bearing: 270, distance: x)
            try? gpsd.send([NMEA.rmc(time: time, latitude: at.latitude, longitude: at.longitude, speedKnots: leaving ? 12 / 0.514444 : 0, course: 270),
                            NMEA.gga(time: time, latitude: at.latitude, longitude: at.longitude, hdop: 0.8)].map { $0 + "\r\n" }.joined())
            try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", "ann", "-P", "ann-secret", "-V", "mqttv5",
                                               "-q", "1", "-t", "hotcold/ann/ute/location",
                                               "-m", #"{"time":"\#(ISO8601.format(Date()))","latitude":\#(annSpot.latitude),"longitude":\#(annSpot.longitude),"gps_accuracy":3}"#])
            if !leaving, logged("ARRIVED", "point-1"), logged("ARRIVED", "friend:ann/ute") { leaving = true }
            if leaving { x += 12 }
            if logged("DEPARTED", "point-1"), logged("DEPARTED", "friend:ann/ute") { break }
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second + 1)).timeIntervalSinceNow))
        }
        try #require(logged("ARRIVED", "friend:ann/ute") && logged("DEPARTED", "point-1"), "\(bridge.stderr.suffix(2000))")
        // The car's own departure is the last of its events: once it is on the broker, so is
        // everything before it.
        let departedSeq = try #require(logLines(dir).last {
            $0["class"] as? String == "DEPARTED" && ($0["target"] as? [String: Any])?["id"] as? String == "point-1"
        }?["seq"] as? Int)
        let messages = mine.wait { m in m.contains { $0.topic == "hotcold/t/car9/visit" && $0.payload.contains(#""seq":\#(departedSeq)"#) } }
        #expect(messages.contains { $0.topic == "hotcold/t/car9/visit" && $0.payload.contains(#""seq":\#(departedSeq)"#) },
                "\(messages.map(\.topic))")
        #expect(messages.contains { $0.topic == "hotcold/t/car9/arrival" && $0.payload.contains("point-1") })
        let aboutAnn = messages.filter { $0.payload.contains("ann/ute") || $0.payload.contains("friend") }
        #expect(aboutAnn.isEmpty, "\(aboutAnn.map { "\($0.topic) \($0.payload.prefix(160))" })")
    }
}
