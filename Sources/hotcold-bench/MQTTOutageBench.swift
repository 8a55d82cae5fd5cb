import Foundation
import HotColdCore
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A long broker outage with the car driving: a real gpsd fed NMEA, `hotcoldd`, `hotcold-mqtt`,
/// mosquitto and `mosquitto_sub`. The broker is stopped for `seconds` (default 600; set
/// `HOTCOLD_OUTAGE_SECONDS`) while events flow, then started again. Prints the RSS of the bridge
/// and the daemon before, during (sampled every 10 s: the largest) and after, the daemon
/// connections the bridge opened, the outage log lines, events lost and deliveries per event.
///
///     swift run -c release hotcold-bench mqtt-outage
///     HOTCOLD_OUTAGE_SECONDS=60 swift run -c release hotcold-bench mqtt-outage
func benchMQTTOutage() {
    guard MosquittoBroker.available, GPSDHarness.gpsdAvailable else { print("mqtt-outage: mosquitto or gpsd missing; skipped"); return }
    let seconds = ProcessInfo.processInfo.environment["HOTCOLD_OUTAGE_SECONDS"].flatMap(Double.init) ?? 600
    do {
        try OutageRun(seconds: seconds).run()
    } catch {
        print("mqtt-outage: \(error)")
    }
}

private struct OutageRun {
    let seconds: Double
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

    func rssKiB(_ pid: Int32) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    func run() throws {
        let dir = try TemporaryDirectory("mqtt-outage-bench")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let sub = try MQTTSubscriber(port: broker.port, topics: ["hotcold/bench/car/event"])
        defer { sub.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        // Targets along a long straight road, one every 20 s of driving: events all the time.
        let route = (0..<Int(seconds / 10 + 200)).map { i -> [String] in
            let p = track.point(second: 20 + i * 20)
            return ["--target", "\(p.latitude),\(p.longitude),Thing \(i + 1)"]
        }.flatMap { $0 }
        let daemon = try DaemonProcess(arguments: ["--socket", dir.path("hc.sock"), "--log", dir.path("events.jsonl"),
                                                   "--db", dir.path("hc.sqlite"), "--gpsd", "127.0.0.1:\(gpsd.port)"] + route,
                                       waitForSocket: false, extraFiles: false)
        defer { daemon.stop() }
        try daemon.waitFor(dir.path("hc.sock"))
        let config = dir.path("bridge.toml")
        try """
            [daemon]
            socket = "\(dir.path("hc.sock"))"
            [broker]
            host = "127.0.0.1"
            port = \(broker.port)
            reconnect_max = 30
            [topics]
            user = "bench"
            device = "car"
            [bridge]
            state_directory = "\(dir.path("bridge-state"))"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let stderrPath = dir.path("bridge.stderr")
        let bridge = try SpawnedProcess([Binaries.url("hotcold-mqtt").path, "--config", config], stderr: stderrPath)
        defer { bridge.terminate() }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.25)
        feeder.start()
        defer { feeder.stop() }
        func events() -> [String] {
            ((try? String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        Thread.sleep(forTimeInterval: 20)
        let before = (bridge: rssKiB(bridge.pid), daemon: rssKiB(daemon.pid), events: events().count)
        broker.kill(SIGTERM)
        var during = (bridge: 0, daemon: 0)
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            Thread.sleep(forTimeInterval: min(10, seconds))
            during = (max(during.bridge, rssKiB(bridge.pid)), max(during.daemon, rssKiB(daemon.pid)))
        }
        let inOutage = events().count - before.events
        try broker.restart()
        Thread.sleep(forTimeInterval: 20)
        feeder.stop()
        Thread.sleep(forTimeInterval: 5)
        let expected = Set(events().compactMap { LineClient.object($0)?["seq"] as? Int })
        let got = sub.wait(timeout: 120) { m in Set(m.compactMap { LineClient.object($0.payload)?["seq"] as? Int }).isSuperset(of: expected) }
        let after = (bridge: rssKiB(bridge.pid), daemon: rssKiB(daemon.pid))
        var deliveries: [Int: Int] = [:]
        for m in got { if let s = LineClient.object(m.payload)?["seq"] as? Int { deliveries[s, default: 0] += 1 } }
        let lost = expected.subtracting(deliveries.keys).count
        let log = ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "").split(separator: "\n")
        let watches = log.filter { $0.contains("streaming from the daemon") }.count
        let reconnects = log.filter { $0.contains("daemon connection ended") }.count
        let counts = deliveries.values.sorted()
        print(String(format: "mqtt-outage: broker away %.0f s with %d events logged meanwhile (%d in all)", seconds, inOutage, expected.count))
        print("  RSS KiB   bridge before \(before.bridge), during ≤ \(during.bridge), after \(after.bridge);"
              + "   daemon before \(before.daemon), during ≤ \(during.daemon), after \(after.daemon)")
        print("  daemon connections ended: \(reconnects); watch requests accepted: \(watches); bridge log lines: \(log.count)"
              + " (outage: \(log.filter { $0.contains("lost the broker") }.count), back: \(log.filter { $0.contains("back after") }.count))")
        print("  lost \(lost); deliveries per event: median \(counts.isEmpty ? 0 : counts[counts.count / 2]), max \(counts.last ?? 0),"
              + " events delivered twice \(counts.filter { $0 == 2 }.count)")
    }
}
