import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fleet bridge for real: a real gpsd fed NMEA, the built `hotcoldd`, the built
/// `hotcold-mqtt`, a real mosquitto broker and `mosquitto_sub` as an independent subscriber.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct MQTTBridgeTests: BridgeSuite {
    /// Due east at 10 m/s from near Coffs Harbour.
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

    /// Targets on the road every `spacing` seconds of driving, from second `first`.
    func targets(count: Int, first: Int = 30, spacing: Int = 25) -> [String] {
        roadTargets(count: count, first: first, spacing: spacing)
    }

    @Test func eventsArriveInOrderWithTheirPayloadsAndStateIsRetained() throws {
        let dir = try TemporaryDirectory("mqtt-e2e")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let sub = try MQTTSubscriber(port: broker.port, topics: ["hotcold/#"])
        defer { sub.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: targets(count: 3))
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car1")
        defer { bridge.stop() }
        _ = sub.wait { $0.contains { $0.topic == "hotcold/t/car1/status" && $0.payload == "online" } }
        let client = try LineClient(path: dir.path("hc.sock"))
        try client.waitUntilGPSDConnected()

        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        var departures = 0
        let deadline = Date().addingTimeInterval(40)
        while departures < 3, Date() < deadline {
            usleep(200_000)
            departures = logEvents(dir).filter { $0.contains(#""class":"DEPARTED""#) }.count
        }
        feeder.stop()
        #expect(departures == 3, "daemon log: \(logEvents(dir).count) lines")
        usleep(500_000)
        let log = logEvents(dir)
        let got = sub.wait { m in m.filter { $0.topic == "hotcold/t/car1/event" }.count >= log.count }
        let events = got.filter { $0.topic == "hotcold/t/car1/event" }
        // Every event, in order, byte for byte as in the daemon's log, never retained.
        #expect(events.map(\.payload) == log, "bridge log: \(bridge.stderr)")
        #expect(events.allSatisfy { !$0.retained })
        let visits = got.filter { $0.topic == "hotcold/t/car1/visit" }.map(\.payload)
        #expect(visits == log.filter { $0.contains(#""class":"ARRIVED""#) || $0.contains(#""class":"DEPARTED""#) })
        #expect(visits.count == 6)
        // The retained state carries the last fix; a late subscriber gets it and "online".
        let late = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car1/state", "hotcold/t/car1/status"])
        defer { late.stop() }
        // The first message on each topic is the retained one (the state is also renewed live
        // every status interval, and a renewal may follow it before the other topic's arrives).
        let got2 = late.wait { m in Set(m.map(\.topic)).count >= 2 }
        let retained = ["hotcold/t/car1/state", "hotcold/t/car1/status"].compactMap { t in got2.first { $0.topic == t } }
        #expect(retained.count == 2 && retained.allSatisfy { $0.retained }, "\(got2.map { ($0.topic, $0.retained) })")
        #expect(retained.contains { $0.topic.hasSuffix("/status") && $0.payload == "online" })
        let state = try #require(retained.first { $0.topic.hasSuffix("/state") })
        let s = try #require(LineClient.object(state.payload))
        #expect(s["class"] as? String == "STATE")
        let fix = try #require(s["last_fix"] as? [String: Any])
        #expect(abs((fix["lat"] as? Double ?? 0) + 30.30) < 0.01)
        // Events are never retained: a subscriber that comes late gets none.
        let lateEvents = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car1/event", "hotcold/t/car1/visit"])
        usleep(1_000_000)
        #expect(lateEvents.messages.isEmpty)
        lateEvents.stop()
        // The bridge reports to the daemon: `hotcold status` shows it with the last number the
        // broker acknowledged (the last event of the drive).
        let lastSeq = try #require(log.last.flatMap(seq))
        func status() throws -> String {
            try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", dir.path("hc.sock")]).stdout
        }
        var shown = ""
        for _ in 0..<50 where !shown.contains("hotcold-mqtt-hotcold: connected, acked seq \(lastSeq), 0 pending") {
            usleep(200_000)
            shown = try status()
        }
        #expect(shown.contains("hotcold-mqtt-hotcold: connected, acked seq \(lastSeq), 0 pending (broker 127.0.0.1:\(broker.port) as hotcold-t-car1-hotcold, layout hotcold)"), "\(shown)")
        // A clean stop says offline, retained for whoever asks later.
        bridge.stop()
        #expect(bridge.process.terminationStatus == 0)
        // …and the daemon shows the bridge gone with what it said last.
        for _ in 0..<50 where !shown.contains("hotcold-mqtt-hotcold: GONE") {
            usleep(100_000)
            shown = try status()
        }
        #expect(shown.contains("hotcold-mqtt-hotcold: GONE (its connection closed; last said connected), acked seq \(lastSeq)"), "\(shown)")
        _ = late.wait { m in m.contains { $0.payload == "offline" } }
        let after = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car1/status"])
        defer { after.stop() }
        #expect(after.wait { !$0.isEmpty }.first == MQTTSubscriber.Message(retained: true, topic: "hotcold/t/car1/status", payload: "offline"))
    }

    @Test func everyEventAtLeastOnceThroughBrokerBridgeAndDaemonRestarts() throws {
        let dir = try TemporaryDirectory("mqtt-alo")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let sub = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/car2/event", "hotcold/t/car2/status"])
        defer { sub.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let route = targets(count: 16, first: 20, spacing: 20)
        var daemon = try startDaemon(dir, gpsd: gpsd, targets: route)
        defer { daemon.stop() }
        var bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car2")
        defer { bridge.stop() }
        _ = sub.wait { $0.contains { $0.payload == "online" } }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()

        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.04)
        feeder.start()
        defer { feeder.stop() }
        func waitForLog(_ n: Int) {
            let deadline = Date().addingTimeInterval(30)
            while logEvents(dir).count < n, Date() < deadline { usleep(100_000) }
        }
        // 1. The broker goes down mid-drive (SIGKILL, no goodbye) and comes back.
        waitForLog(15)
        broker.kill(SIGKILL)
        usleep(1_500_000)
        try broker.restart()
        // 2. The bridge is killed without warning and restarted.
        waitForLog(logEvents(dir).count + 20)
        bridge.kill9()
        usleep(1_000_000)
        bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car2")
        // 3. The daemon restarts (same log, numbering goes on).
        waitForLog(logEvents(dir).count + 20)
        daemon.signal(SIGTERM)
        daemon.waitForExit(timeout: 30)
        usleep(500_000)
        daemon = try startDaemon(dir, gpsd: gpsd, targets: route)
        waitForLog(logEvents(dir).count + 20)
        feeder.stop()
        usleep(1_000_000)

        let log = logEvents(dir)
        let seqs = log.compactMap(seq)
        try #require(seqs.count == log.count, "every logged event carries seq (needs the pipeline branch)")
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "log numbering increases across the restart")
        let expected = Dictionary(log.map { (seq($0)!, $0) }, uniquingKeysWith: { a, _ in a })
        let got = sub.wait(timeout: 40) { m in
            Set(m.filter { $0.topic.hasSuffix("/event") }.compactMap { seq($0.payload) }).isSuperset(of: expected.keys)
        }
        let events = got.filter { $0.topic.hasSuffix("/event") }
        let received = Set(events.compactMap { seq($0.payload) })
        let missing = expected.keys.filter { !received.contains($0) }.sorted()
        #expect(missing.isEmpty, "missing \(missing.count) of \(expected.count): \(missing.prefix(20)); bridge: \(bridge.stderr)")
        // Duplicates are the same event: same seq, same bytes.
        for e in events {
            if let s = seq(e.payload), let want = expected[s] { #expect(e.payload == want) }
        }
        // First deliveries come in order.
        var firsts: [Int] = []
        var seen = Set<Int>()
        for e in events { if let s = seq(e.payload), seen.insert(s).inserted { firsts.append(s) } }
        #expect(firsts == firsts.sorted())
        #expect(events.allSatisfy { !$0.retained })
        // The Last Will said offline when the bridge was killed, and it came back online.
        let status = got.filter { $0.topic.hasSuffix("/status") }.map(\.payload)
        #expect(status.contains("offline"))
        #expect(status.last == "online")
        // The stored number is what the broker acknowledged: at most the last event.
        let stored = UInt64((try? String(contentsOfFile: dir.path("bridge-state/acked-seq"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        #expect(stored != nil && Int(stored!) <= seqs.last!)
        _ = daemon
    }

    @Test func ownTracksLayoutFieldByField() throws {
        let dir = try TemporaryDirectory("mqtt-ot")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let sub = try MQTTSubscriber(port: broker.port, topics: ["owntracks/#"])
        defer { sub.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let thing = track.point(second: 30)
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: ["\(thing.latitude),\(thing.longitude),Roadside Thing"])
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "phone", layout: "owntracks",
                                       extra: ["[owntracks]", #"phone_topic = "owntracks/t/jane-phone""#])
        defer { bridge.stop() }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        usleep(500_000)
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        let got = sub.wait(timeout: 30) { m in m.filter { $0.topic == "owntracks/t/phone/event" }.count >= 2 }
        feeder.stop()
        let log = logEvents(dir)
        let arrived = try #require(log.first { $0.contains(#""class":"ARRIVED""#) }.flatMap(LineClient.object))
        let departed = try #require(log.first { $0.contains(#""class":"DEPARTED""#) }.flatMap(LineClient.object))
        let transitions = got.filter { $0.topic == "owntracks/t/phone/event" }.compactMap { LineClient.object($0.payload) }
        try #require(transitions.count >= 2, "bridge: \(bridge.stderr)")
        #expect(got.filter { $0.topic == "owntracks/t/phone/event" }.allSatisfy { !$0.retained })
        for (t, e, kind) in [(transitions[0], arrived, "enter"), (transitions[1], departed, "leave")] {
            #expect(t["_type"] as? String == "transition")
            #expect(t["event"] as? String == kind)
            #expect(t["desc"] as? String == "Roadside Thing")
            let time = try #require(ISO8601.parse(e["time"] as! String))
            #expect(t["tst"] as? Int == Int(time.timeIntervalSince1970.rounded(.down)))
            // acc: the fix's accuracy in whole metres (the status's), not the distance to the target.
            let acc = try #require(t["acc"] as? Int, "\(t)")
            #expect(acc > 0 && acc < 100)
            #expect(Double(acc) != e["distance_m"] as? Double)
            #expect(t["t"] as? String == "c")
            #expect(t["tid"] as? String == "ne")
            #expect(t["wtst"] is Int)
            #expect(t["rid"] as? String == (e["target"] as? [String: Any])?["id"] as? String)
            // lat/lon: the target's own coordinates (the waypoint), as learned from status.
            let lat = try #require(t["lat"] as? Double), lon = try #require(t["lon"] as? Double)
            #expect(Coordinate(latitude: lat, longitude: lon).distance(to: Coordinate(latitude: thing.latitude, longitude: thing.longitude)) < 1)
        }
        // Locations: retained on the device topic, integer tst, position on the track.
        let locations = got.filter { $0.topic == "owntracks/t/phone" }
        try #require(!locations.isEmpty)
        let loc = try #require(LineClient.object(locations.last!.payload))
        #expect(loc["_type"] as? String == "location")
        #expect(loc["tst"] is Int)
        let locLat = loc["lat"] as? Double ?? 0
        #expect(abs(locLat + 30.30) < 0.001)
        #expect(loc["tid"] as? String == "ne")
        #expect(loc["vel"] as? Int == 36)
        #expect(loc["acc"] is Int)
        let late = try MQTTSubscriber(port: broker.port, topics: ["owntracks/t/phone"])
        defer { late.stop() }
        #expect(late.wait { !$0.isEmpty }.first?.retained == true)
        // The configured phone got the target as an OwnTracks region (setWaypoints), once: the
        // nearest set did not change.
        let cmds = got.filter { $0.topic == "owntracks/t/jane-phone/cmd" }
        #expect(cmds.count == 1, "\(cmds.count) setWaypoints")
        let cmd = try #require(cmds.first.flatMap { LineClient.object($0.payload) })
        #expect(cmd["_type"] as? String == "cmd" && cmd["action"] as? String == "setWaypoints")
        let w = try #require(((cmd["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]])?.first)
        #expect(w["desc"] as? String == "Roadside Thing" && w["rad"] as? Int == 100)
        let wlat = try #require(w["lat"] as? Double), wlon = try #require(w["lon"] as? Double)
        #expect(Coordinate(latitude: wlat, longitude: wlon).distance(to: Coordinate(latitude: thing.latitude, longitude: thing.longitude)) < 1)
    }
}

/// The built `hotcold-mqtt` with a configuration written for the test.
final class BridgeProcess {
    let process = Process()
    let stderrPath: String

    /// `extra`: TOML lines appended to the generated file (sections of their own, or keys for
    /// the last section, `[bridge]`); `host` lets a test point it at something else;
    /// `statusInterval` nil: the shipped default.
    init(dir: TemporaryDirectory, brokerPort: UInt16, device: String, layout: String = "hotcold",
         clientID: String = "", stateDirectory: String? = nil, host: String = "127.0.0.1", user: String = "t",
         statusInterval: Double? = 0.5, brokerExtra: [String] = [], extra: [String] = [], executable: URL? = nil,
         runAs: UnixUser? = nil) throws {
        let config = dir.path("bridge-\(user)-\(device)-\(layout).toml")
        try """
            [daemon]
            socket = "\(dir.path("hc.sock"))"
            reconnect_max = 0.5
            [broker]
            host = "\(host)"
            port = \(brokerPort)
            client_id = "\(clientID)"
            reconnect_max = 1
            keepalive = 5
            \(brokerExtra.joined(separator: "\n"))
            [topics]
            layout = "\(layout)"
            user = "\(user)"
            device = "\(device)"
            [bridge]
            state_directory = "\(stateDirectory ?? dir.path("bridge-state"))"
            \(statusInterval.map { "status_interval = \($0)" } ?? "# status_interval: the shipped default")
            \(extra.joined(separator: "\n"))
            """.write(toFile: config, atomically: true, encoding: .utf8)
        stderrPath = dir.path("bridge-\(device)-\(UUID().uuidString.prefix(4)).stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let program = executable ?? Binaries.url("hotcold-mqtt")
        if let runAs {
            // As another Unix user (an installed bridge is systemd's dynamic user, not root).
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(runAs.uid)", "--regid=\(runAs.gid)", "--init-groups", "--", program.path, "--config", config]
        } else {
            process.executableURL = program
            process.arguments = ["--config", config]
        }
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Lines of its log that contain `text`.
    func lines(containing text: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    func kill9() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill9() }
    }
}
