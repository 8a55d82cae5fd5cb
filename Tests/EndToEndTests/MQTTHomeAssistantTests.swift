import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Home Assistant's view of the car, read the way Home Assistant reads it: a fresh subscriber
/// gets the retained discovery configuration, each entity's retained state topic and the
/// availability topic. Checked after a start, a broker restart, a bridge `kill -9` and a
/// Home Assistant birth message, against a real mosquitto.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct MQTTHomeAssistantTests {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

    /// What a Home Assistant starting now would see: entity → (config, state payload, availability).
    struct Entities {
        var configs: [String: [String: Any]] = [:]
        var retained: [String: String] = [:]

        func state(of object: String) -> [String: Any]? {
            guard let c = configs.first(where: { $0.key.hasSuffix("/\(object)/config") })?.value,
                  let topic = (c["state_topic"] ?? c["json_attributes_topic"]) as? String,
                  let payload = retained[topic] else { return nil }
            return LineClient.object(payload)
        }

        func availability(of object: String) -> String? {
            guard let c = configs.first(where: { $0.key.hasSuffix("/\(object)/config") })?.value,
                  let topic = c["availability_topic"] as? String else { return nil }
            return retained[topic]
        }
    }

    func look(_ port: UInt16, device: String, expect count: Int = 9) throws -> Entities {
        let sub = try MQTTSubscriber(port: port, topics: ["homeassistant/#", "hotcold/t/\(device)/#"])
        defer { sub.stop() }
        let got = sub.wait(timeout: 10) { m in m.filter(\.retained).count >= count }
        var e = Entities()
        for m in got where m.retained {
            if m.topic.hasSuffix("/config") { e.configs[m.topic] = LineClient.object(m.payload) } else { e.retained[m.topic] = m.payload }
        }
        return e
    }

    func expectRight(_ e: Entities, available: String, _ when: String) {
        #expect(e.configs.count == 5, "\(when): \(e.configs.keys.sorted())")
        for object in ["location", "distance", "tier", "trend"] {
            #expect(e.availability(of: object) == available, "\(when): \(object)")
        }
        let loc = e.state(of: "location")
        #expect(abs((loc?["latitude"] as? Double ?? 0) + 30.30) < 0.01, "\(when): \(String(describing: loc))")
        #expect(loc?["gps_accuracy"] is Int && loc?["time"] is String, "\(when)")
        let near = e.state(of: "distance")
        #expect((near?["distance_m"] as? Double).map { $0 >= 0 } == true, "\(when): \(String(describing: near))")
        #expect(near?["tier_name"] is String && near?["trend"] is String && near?["time"] is String, "\(when)")
    }

    @Test func entitiesAreRightAfterStartBrokerRestartBridgeKillAndBirthMessage() throws {
        let dir = try TemporaryDirectory("mqtt-ha")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let thing = track.point(second: 60)
        let daemon = try DaemonProcess(arguments: ["--socket", dir.path("hc.sock"), "--log", dir.path("events.jsonl"),
                                                   "--db", dir.path("hc.sqlite"), "--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "\(thing.latitude),\(thing.longitude),Big Thing"],
                                       waitForSocket: false, extraFiles: false)
        defer { daemon.stop() }
        try daemon.waitFor(dir.path("hc.sock"))
        let ha = ["[homeassistant]", "enabled = true", "expire_after = 60"]
        var bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "ute", extra: ha)
        defer { bridge.stop() }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        usleep(3_000_000)
        expectRight(try look(broker.port, device: "ute"), available: "online", "after start")

        // Broker restart: the retained configuration and states survive, the bridge comes back.
        broker.kill(SIGTERM)
        usleep(500_000)
        try broker.restart()
        let deadline = Date().addingTimeInterval(10)
        while bridge.lines(containing: "back after").isEmpty, Date() < deadline { usleep(100_000) }
        usleep(1_000_000)
        expectRight(try look(broker.port, device: "ute"), available: "online", "after a broker restart")

        // Bridge killed: the Last Will makes every entity unavailable; a new bridge makes them available.
        bridge.kill9()
        let gone = try look(broker.port, device: "ute")
        // keepalive 5 s: the broker notices within 1.5 × keepalive.
        var offline = gone.availability(of: "distance")
        let willDeadline = Date().addingTimeInterval(10)
        while offline != "offline", Date() < willDeadline {
            usleep(500_000)
            offline = try look(broker.port, device: "ute").availability(of: "distance")
        }
        #expect(offline == "offline", "the Last Will marks the entities unavailable")
        bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "ute", extra: ha)
        usleep(2_500_000)
        expectRight(try look(broker.port, device: "ute"), available: "online", "after a bridge kill -9 and restart")

        // Home Assistant's birth message: the configuration is sent again (not as retained copies).
        let watcher = try MQTTSubscriber(port: broker.port, topics: ["homeassistant/+/+/+/config"])
        defer { watcher.stop() }
        _ = watcher.wait { $0.count >= 5 }
        _ = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                               ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/status", "-m", "online", "-q", "1"])
        let again = watcher.wait { m in m.filter { !$0.retained }.count >= 5 }
        #expect(again.filter { !$0.retained }.count == 5, "\(bridge.stderr)")
        #expect(bridge.lines(containing: "Home Assistant is online").count == 1)
    }
}
