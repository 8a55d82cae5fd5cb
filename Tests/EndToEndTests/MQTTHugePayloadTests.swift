import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, huge payloads: strangers with broker logins of their own (a password file and the
/// shipped ACL, so each writes only on its own topics) publish 1, 100 and 255 MiB on the
/// topics a built `hotcold-mqtt` subscribes to — a followed friend's `…/location` and a like
/// for this car on the liker's `…/likes/t/car9`. The bridge asks for at most a feed item's size
/// plus headers (MQTT v5 Maximum Packet Size), so the broker never sends them: its peak RSS
/// stays far under its unit's `MemoryMax=64M`, and a friend's position after them still reaches
/// the daemon's radar. A payload just over 8 KiB (inside the packet limit) reaches the bridge
/// and is dropped unread, logged and counted in `hotcold status`.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct MQTTHugePayloadTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
    }

    /// A field of `/proc/PID/status` in KiB (VmRSS: now; VmHWM: the peak).
    func memory(_ pid: Int32, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    @Test func hugePayloadsNeverReachTheBridgesMemoryAndItKeepsWorking() throws {
        let dir = try TemporaryDirectory("mqtt-huge")
        defer { dir.remove() }
        for (i, user) in ["t", "jane", "bob"].enumerated() {
            try run("/usr/bin/mosquitto_passwd", ["-b"] + (i == 0 ? ["-c"] : []) + [dir.path("passwd"), user, "\(user)-secret"])
        }
        try "t-secret\n".write(toFile: dir.path("t.pw"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))",
                                                       "acl_file \(TestData.repo("config/mosquitto-hotcold.acl").path)"],
                                               anonymous: false)
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: [])
        defer { daemon.stop() }
        let follow = try LineClient(path: dir.path("hc.sock"))
        try follow.send(#"{"cmd":"follow","who":"jane/ute"}"#)
        #expect(try follow.read(class: "RESULT", timeout: 10)["ok"] as? Bool == true)
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car9",
                                       brokerExtra: [#"username = "t""#, #"password_file = "\#(dir.path("t.pw"))""#])
        defer { bridge.stop() }
        let deadline = Date().addingTimeInterval(20)
        while bridge.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(100_000) }
        try #require(!bridge.lines(containing: "following 1 device").isEmpty, "\(bridge.stderr)")
        let pid = bridge.process.processIdentifier
        let before = try #require(memory(pid, "VmRSS"))

        // 1, 100 and 255 MiB (MQTT's largest packet is 256 MiB) on both topics, each as the
        // user whose topic it is.
        for mib in [1, 100, 255] {
            let file = dir.path("payload-\(mib)")
            try run("/usr/bin/truncate", ["-s", "\(mib)M", file])
            for (user, topic) in [("jane", "hotcold/jane/ute/location"), ("bob", "hotcold/bob/car/likes/t/car9")] {
                try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", user, "-P", "\(user)-secret",
                                                   "-V", "mqttv5", "-q", "1", "-t", topic, "-f", file])
            }
            try FileManager.default.removeItem(atPath: file)
        }
        // Just over a feed item's 8 KiB: inside the packet limit, so the broker sends it; the
        // bridge drops it unread.
        let over = String(repeating: "x", count: 20_000)
        try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", "jane", "-P", "jane-secret",
                                           "-V", "mqttv5", "-q", "1", "-t", "hotcold/jane/ute/location", "-m", over])
        // Then Jane's real position: the bridge still hands it to the daemon's radar.
        let now = ISO8601.format(Date())
        try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", "jane", "-P", "jane-secret",
                                           "-V", "mqttv5", "-q", "1", "-t", "hotcold/jane/ute/location",
                                           "-m", #"{"time":"\#(now)","latitude":-30.31,"longitude":153.1,"gps_accuracy":5}"#])
        var shown = ""
        let until = Date().addingTimeInterval(20)
        while !(shown.contains("jane/ute") && shown.contains("1 oversized")), Date() < until {
            usleep(200_000)
            shown = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", dir.path("hc.sock")]).stdout
        }
        #expect(shown.contains("friends: 1 on the radar"), "\(shown)\n\(bridge.stderr)")
        #expect(shown.contains("friends: 0 messages ignored, 0 refused for a full inbox, 1 oversized"), "\(shown)")
        #expect(bridge.lines(containing: "ignored a message of 20000 bytes on hotcold/jane/ute/location (over 8192, not read; 1 so far)").count == 1,
                "\(bridge.stderr)")
        #expect(bridge.process.isRunning)
        let peak = try #require(memory(pid, "VmHWM")), after = try #require(memory(pid, "VmRSS"))
        print("bridge RSS: \(before / 1024) MiB before, \(after / 1024) MiB after; peak \(peak / 1024) MiB (1, 100, 255 MiB payloads on two topics)")
        #expect(peak < 64 * 1024, "peak RSS \(peak) KiB")
    }
}
