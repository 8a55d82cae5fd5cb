import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, a flood of feed items: a followed friend (her own broker login, the shipped ACL)
/// publishes 2,000 feed items of 8 KiB each while the daemon is stopped (SIGSTOP: it takes
/// nothing). A built `hotcold-mqtt` with `[friends] inbox_bytes = 262144` keeps what fits,
/// refuses the rest with a count in `hotcold status`, and its journal on disk stays within the
/// budget's bound (it grew to tens of MB before). Once the daemon runs again every accepted
/// item reaches it and the journal empties. A bridge killed mid-flood and started again reads
/// its journal back (within the bound) and hands those items on.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsInboxFloodTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)
    static let budget = 256 << 10

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
    }

    func waitUntil(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    /// `count` FEED_ITEMs by jane/ute numbered from `first`, each padded with JSON whitespace
    /// to 8,000 bytes (valid, under the 8 KiB cap), and a last line that is no JSON: once the
    /// bridge says it ignored that one, it has read every item before it (one publisher, one
    /// topic, QoS 1: in order).
    func flood(_ broker: MosquittoBroker, _ dir: TemporaryDirectory, first: Int, count: Int, marker: String) throws {
        let now = ISO8601.format(Date())
        var lines: [String] = []
        for seq in first..<(first + count) {
            let item = #"{"class":"FEED_ITEM","author":"jane","device":"ute","seq":\#(seq),"time":"\#(now)","kind":"arrived","place":{"id":"p-\#(seq)","name":"Place \#(seq)","kind":"point"}"#
            lines.append(item + String(repeating: " ", count: 8000 - item.utf8.count - 1) + "}")
        }
        lines.append(marker)
        let file = dir.path("flood-\(first).txt")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let r = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"),
                                   ["-c", "/usr/bin/mosquitto_pub -h 127.0.0.1 -p \(broker.port) -u jane -P jane-secret -V mqttv5 -q 1 "
                                        + "-t hotcold/jane/ute/feed -l < '\(file)'"])
        guard r.status == 0 else { throw TestFailure("mosquitto_pub: \(r.stderr)") }
    }

    /// The seqs of jane's items in the daemon's feed.
    func feedSeqs(_ dir: TemporaryDirectory) throws -> Set<Int> {
        let c = try LineClient(path: dir.path("hc.sock"))
        try c.send(#"{"cmd":"feed","limit":200}"#)
        let items = (try c.read(class: "FEED", timeout: 10)["items"] as? [[String: Any]]) ?? []
        return Set(items.filter { $0["author"] as? String == "jane" }.compactMap { $0["seq"] as? Int })
    }

    @Test func aFloodIsHeldToTheInboxBudgetCountedAndDrainedAcrossACrash() throws {
        let dir = try TemporaryDirectory("inbox-flood")
        defer { dir.remove() }
        for (i, user) in ["t", "jane"].enumerated() {
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
        defer { daemon.signal(SIGCONT); daemon.stop() }
        let follow = try LineClient(path: dir.path("hc.sock"))
        try follow.send(#"{"cmd":"follow","who":"jane/ute"}"#)
        #expect(try follow.read(class: "RESULT", timeout: 10)["ok"] as? Bool == true)
        let state = dir.path("bridge-state")
        let journal = state + "/friends-inbox"
        func startBridge() throws -> BridgeProcess {
            try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car9", stateDirectory: state,
                              brokerExtra: [#"username = "t""#, #"password_file = "\#(dir.path("t.pw"))""#],
                              extra: ["[friends]", "inbox_bytes = \(Self.budget)"])
        }
        var bridge = try startBridge()
        defer { bridge.stop() }
        #expect(waitUntil(20) { !bridge.lines(containing: "following 1 device").isEmpty }, "\(bridge.stderr)")
        let bound = Self.budget + Self.budget / 4 + 11_000    // FriendInbox.restoreLimit and a record

        // The daemon takes nothing: 2,000 items of 8 KiB arrive.
        daemon.signal(SIGSTOP)
        try flood(broker, dir, first: 1, count: 2000, marker: "end of flood 1")
        #expect(waitUntil(30) { !bridge.lines(containing: "not a JSON object").isEmpty }, "\(bridge.stderr.suffix(2000))")
        let held = (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0
        print("friends-inbox journal after 2,000 items of 8 KiB with the daemon stopped: \(held) bytes (budget \(Self.budget))")
        #expect(held > 0 && held <= bound, "\(held) bytes")
        #expect(!bridge.lines(containing: "the friends inbox is full").isEmpty, "\(bridge.stderr.suffix(2000))")

        // The daemon runs again: every accepted item reaches it, in order from the first, the
        // journal empties, and `hotcold status` counts the refused.
        daemon.signal(SIGCONT)
        #expect(waitUntil(30) { (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) == 0 })
        let accepted = try feedSeqs(dir)
        #expect(!accepted.isEmpty && accepted == Set(1...accepted.count), "\(accepted.sorted())")
        var shown = ""
        let refusedText = "friends: 1 messages ignored, \(2000 - accepted.count) refused for a full inbox"
        #expect(waitUntil(20) {
            shown = (try? Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", dir.path("hc.sock")]).stdout) ?? ""
            return shown.contains(refusedText)
        }, "\(refusedText) not in: \(shown)")

        // A crash mid-flood: the new bridge reads back its journal, record by record, and the
        // daemon gets every item it held.
        daemon.signal(SIGSTOP)
        try flood(broker, dir, first: 3001, count: 300, marker: "end of flood 2")
        #expect(waitUntil(30) { bridge.lines(containing: "not a JSON object").count >= 2 }, "\(bridge.stderr.suffix(2000))")
        bridge.kill9()
        let left = (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0
        #expect(left > 0 && left <= bound, "\(left) bytes")
        bridge = try startBridge()
        #expect(waitUntil(20) { !bridge.lines(containing: "from before a restart are passed on again").isEmpty }, "\(bridge.stderr)")
        let restored = bridge.lines(containing: "from before a restart are passed on again").first ?? ""
        let count = Int(restored.split(separator: " ").first { Int($0) != nil } ?? "") ?? 0
        #expect(!restored.contains("dropped"), "\(restored)")
        daemon.signal(SIGCONT)
        #expect(waitUntil(30) { (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) == 0 })
        let after = try feedSeqs(dir).filter { $0 > 3000 }
        #expect(count > 0 && after == Set(3001..<(3001 + count)), "restored \(count): \(after.sorted())")
    }
}
