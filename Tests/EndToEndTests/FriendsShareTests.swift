import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `[share]` for real: the built `hotcoldd` driven past places by a real gpsd, the built
/// `hotcold-mqtt`, a real mosquitto, and `mosquitto_sub` on `#` reading every message the broker
/// carries.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsShareTests: BridgeSuite {
    /// Due east at 10 m/s from near Coffs Harbour.
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

    /// Keys that carry a position, a distance or a bearing in any layout.
    static let positionKeys: Set<String> = ["lat", "lon", "latitude", "longitude", "distance_m", "bearing_deg", "last_fix",
                                            "targets", "gps_accuracy", "acc", "vel", "cog", "waypoints"]

    /// Why `payload` gives away where the car is (a key above anywhere in it, or a number near the
    /// drive's coordinates), or nil.
    func positionIn(_ payload: String) -> String? {
        if let o = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) {
            var stack: [Any] = [o]
            while let x = stack.popLast() {
                if let d = x as? [String: Any] {
                    if let k = d.keys.first(where: Self.positionKeys.contains) { return "key \(k)" }
                    stack += Array(d.values)
                } else if let a = x as? [Any] {
                    stack += a
                }
            }
        }
        let numbers = payload.matches(of: /-?\d+\.\d+/).compactMap { Double($0.output) }
        if let n = numbers.first(where: { abs($0 + 30.30) < 0.2 || abs($0 - 153.10) < 0.3 }) { return "the number \(n)" }
        return nil
    }

    /// Drives past `count` places; returns the daemon's log once `count` DEPARTED are in it.
    func drive(_ dir: TemporaryDirectory, gpsd: GPSDHarness, departures count: Int, during: (() throws -> Void)? = nil) throws -> [String] {
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        let deadline = Date().addingTimeInterval(60)
        var duringDone = during == nil
        while Date() < deadline {
            usleep(200_000)
            let log = logEvents(dir)
            if !duringDone, log.contains(where: { $0.contains(#""class":"ARRIVED""#) }) {
                duringDone = true
                try during?()
            }
            if log.filter({ $0.contains(#""class":"DEPARTED""#) }).count >= count { break }
        }
        feeder.stop()
        usleep(300_000)
        return logEvents(dir)
    }

    func publishRetained(_ broker: MosquittoBroker, _ topic: String, _ payload: String) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                                   ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", topic, "-m", payload])
        try #require(r.status == 0, "mosquitto_pub: \(r.stderr)")
    }

    @Test func aVisitsBridgeNeverPublishesAPositionOnlyItsArrivalsOnce() throws {
        let dir = try TemporaryDirectory("share-visits")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        // An earlier run that shared positions left these behind, retained.
        try publishRetained(broker, "hotcold/t/car1/location", #"{"time":"2026-01-01T00:00:00.000Z","latitude":-30.3,"longitude":153.1,"gps_accuracy":5}"#)
        try publishRetained(broker, "homeassistant/device_tracker/hotcold_t_car1/location/config", #"{"name":"Location"}"#)
        let status = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car1/status"])
        defer { status.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: roadTargets(count: 2, first: 20, spacing: 25))
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car1",
                                       extra: ["[homeassistant]", "enabled = true", "[share]", #"share = "visits""#])
        defer { bridge.stop() }
        _ = status.wait { $0.contains { $0.payload == "online" } }
        usleep(500_000)    // the retained clean-up follows "online" on the same connection
        let all = try MQTTSubscriber(port: broker.port, topics: ["#"])
        defer { all.stop() }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        let log = try drive(dir, gpsd: gpsd, departures: 2)
        let arrivals = log.filter { $0.contains(#""class":"ARRIVED""#) }
        try #require(arrivals.count == 2, "daemon log: \(log.count) lines")
        let got = all.wait { m in m.filter { $0.topic == "hotcold/t/car1/feed" }.count >= 2 }
        usleep(1_000_000)
        let messages = all.messages
        #expect(messages.count > 2)
        // Not one message gives the car away: no coordinate, distance or bearing anywhere.
        for m in messages {
            #expect(positionIn(m.payload) == nil, "\(m.topic): \(m.payload)")
        }
        // What was left retained is gone: a subscriber now is told no location.
        #expect(!messages.contains { $0.topic.hasSuffix("/location") && !$0.payload.isEmpty })
        #expect(!messages.contains { $0.topic.hasPrefix("homeassistant/device_tracker/") && !$0.payload.isEmpty })
        #expect(Set(messages.map(\.topic)).isSubset(of: ["hotcold/t/car1/status", "hotcold/t/car1/arrival", "hotcold/t/car1/feed",
                                                         "homeassistant/sensor/hotcold_t_car1/last_arrival/config"]),
                "\(Set(messages.map(\.topic)))")
        // Each arrival once, as a feed item named by the daemon's number, at QoS 1, not retained.
        let feed = got.filter { $0.topic == "hotcold/t/car1/feed" }
        #expect(feed.count == 2, "bridge: \(bridge.stderr)")
        #expect(feed.allSatisfy { !$0.retained })
        let items = feed.compactMap { LineClient.object($0.payload) }
        #expect(items.map { $0["seq"] as? Int } == arrivals.map(seq))
        #expect(items.allSatisfy { $0["class"] as? String == "FEED_ITEM" && $0["kind"] as? String == "arrived"
                                   && $0["author"] as? String == "t" && $0["device"] as? String == "car1" })
        #expect(items.compactMap { ($0["place"] as? [String: Any])?["name"] as? String } == ["Thing 1", "Thing 2"])
        // Home Assistant still gets the last arrival (a name, no distance).
        let last = try #require(messages.last { $0.topic == "hotcold/t/car1/arrival" }.flatMap { LineClient.object($0.payload) })
        #expect((last["target"] as? [String: Any])?["name"] as? String == "Thing 2")
    }

    @Test func aNothingBridgeSaysOnlyOnlineAndOffline() throws {
        let dir = try TemporaryDirectory("share-nothing")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        try publishRetained(broker, "hotcold/t/car3/arrival", #"{"class":"ARRIVED","seq":1,"time":"2026-01-01T00:00:00.000Z","target":{"id":"x","name":"X","kind":"point"}}"#)
        let all = try MQTTSubscriber(port: broker.port, topics: ["#"])
        defer { all.stop() }
        _ = all.wait { !$0.isEmpty }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: roadTargets(count: 1, first: 20, spacing: 25))
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car3",
                                       extra: ["[homeassistant]", "enabled = true", "[share]", #"share = "nothing""#])
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        let log = try drive(dir, gpsd: gpsd, departures: 1)
        #expect(log.contains { $0.contains(#""class":"ARRIVED""#) })
        usleep(1_000_000)
        bridge.stop()
        let messages = all.wait { m in m.contains { $0.payload == "offline" } }.dropFirst()    // the test's own retained arrival first
        #expect(messages.map(\.payload).filter { !$0.isEmpty } == ["online", "offline"], "\(Array(messages))")
        #expect(messages.filter { $0.payload.isEmpty }.map(\.topic).contains("hotcold/t/car3/arrival"))
    }

    @Test func anArrivalIsOneFeedItemAcrossABridgeRestart() throws {
        let dir = try TemporaryDirectory("share-feed-restart")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let feed = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car2/feed", "hotcold/t/car2/status"])
        defer { feed.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: roadTargets(count: 3, first: 15, spacing: 20))
        defer { daemon.stop() }
        var bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car2")
        defer { bridge.stop() }
        _ = feed.wait { $0.contains { $0.payload == "online" } }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        // Stopped after the first arrival and started again while the car drives on.
        let log = try drive(dir, gpsd: gpsd, departures: 3) {
            usleep(500_000)
            bridge.stop()
            usleep(1_500_000)
            bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car2")
        }
        let arrivals = log.filter { $0.contains(#""class":"ARRIVED""#) }.compactMap(seq)
        try #require(arrivals.count == 3)
        feed.wait { m in m.filter { $0.topic.hasSuffix("/feed") }.count >= 3 }
        usleep(1_500_000)
        let items = feed.messages.filter { $0.topic.hasSuffix("/feed") }.compactMap { LineClient.object($0.payload) }
        #expect(items.compactMap { $0["seq"] as? Int } == arrivals, "bridge: \(bridge.stderr)")
    }
}
