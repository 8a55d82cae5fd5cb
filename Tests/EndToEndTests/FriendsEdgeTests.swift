import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// What strangers publish under a club prefix or to this car's likes is checked at the bridge's
/// edge (size, JSON shape, ranges, who): refused messages are named in its log and counted in
/// `hotcold status`, its own messages coming back through the club wildcard are no friend's,
/// and the bridge goes on working.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsEdgeTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

    func publish(_ broker: MosquittoBroker, _ topic: String, _ payload: String) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                                   ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-t", topic, "-m", payload])
        try #require(r.status == 0, "mosquitto_pub: \(r.stderr)")
    }

    @Test func hostileFriendMessagesAreRefusedNamedAndCounted() throws {
        let dir = try TemporaryDirectory("friends-edge")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let status = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car9/status"])
        defer { status.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: [])
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car9",
                                       extra: ["[friends]", #"club = "hotcold""#])
        defer { bridge.stop() }
        _ = status.wait { $0.contains { $0.payload == "online" } }
        usleep(300_000)
        let now = ISO8601.format(Date())
        let hostile: [(String, String, String)] = [
            ("hotcold/jane/ute/location", #"{"time":"\#(now)","latitude":95,"longitude":153.1}"#, "latitude 95.0 outside ±90"),
            ("hotcold/jane/ute/location", #"{"time":"\#(now)","latitude":-30,"longitude":153.1,"pad":"\#(String(repeating: "x", count: 5000))"}"#, "(over 4096)"),
            ("hotcold/jane/ute/location", "GET / HTTP/1.1", "not a JSON object"),
            ("hotcold/jane/ute/feed", #"{"class":"FEED_ITEM","author":"bob","device":"car","seq":5,"time":"\#(now)","kind":"arrived","place":{"id":"x","name":"X","kind":"point"}}"#,
             "an item by bob/car on jane/ute's feed"),
            ("hotcold/bob/car/likes/t/car9", #"{"class":"LIKE","item_seq":3,"liker":"bob/#","like":true,"time":"\#(now)"}"#, #"liker: must be USER/DEVICE"#),
        ]
        for (topic, payload, _) in hostile { try publish(broker, topic, payload) }
        // Our own location coming back through the club's wildcard (hotcold/+/+/location) is
        // nobody's: not even looked at.
        try publish(broker, "hotcold/t/car9/location", #"{"time":"\#(now)","latitude":95,"longitude":0}"#)
        let deadline = Date().addingTimeInterval(10)
        while bridge.lines(containing: "ignored a message on").count < hostile.count, Date() < deadline { usleep(100_000) }
        let ignored = bridge.lines(containing: "ignored a message on")
        #expect(ignored.count == hostile.count, "\(bridge.stderr)")
        for (topic, _, why) in hostile {
            #expect(ignored.contains { $0.contains(topic) && $0.contains(why) }, "\(why): \(ignored)")
        }
        #expect(!ignored.contains { $0.contains("t/car9/location") })
        // `hotcold status` shows the count beside the bridge.
        var shown = ""
        for _ in 0..<50 where !shown.contains("friends: 5 messages ignored") {
            usleep(200_000)
            shown = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", dir.path("hc.sock")]).stdout
        }
        #expect(shown.contains("friends: 5 messages ignored, 0 refused for a full inbox"), "\(shown)")
        #expect(bridge.process.isRunning)
    }
}
