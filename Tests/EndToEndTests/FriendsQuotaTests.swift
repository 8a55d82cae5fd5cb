import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Quota refusals: a club (the shipped ACL with its club lines named) of 201 members with a car
/// each. The first 200 fill the daemon's friend radar; the 201st position is
/// refused over the quota. A built `hotcold-mqtt` drops it with a count in `hotcold status`
/// instead of retrying it at the head of its inbox (where it held every other friend's message
/// behind it), so a feed item that comes after it still reaches the daemon.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsQuotaTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)

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

    func status(_ dir: TemporaryDirectory) -> String {
        (try? Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", dir.path("hc.sock")]).stdout) ?? ""
    }

    @Test func aPositionOverTheRadarsQuotaIsDroppedCountedAndOthersKeepFlowing() throws {
        let dir = try TemporaryDirectory("friends-quota")
        defer { dir.remove() }
        // The crowd: 201 club members with one car each (one member's own devices are bounded
        // on the radar far below 200), their passwords hashed in one pass.
        let users = ["t"] + (1...201).map { "crowd\($0)" }
        try users.map { "\($0):\($0)-secret" }.joined(separator: "\n").appending("\n")
            .write(toFile: dir.path("passwd"), atomically: true, encoding: .utf8)
        try run("/usr/bin/mosquitto_passwd", ["-U", dir.path("passwd")])
        try "t-secret\n".write(toFile: dir.path("t.pw"), atomically: true, encoding: .utf8)
        // The shipped ACL with its club example enabled for the club `hotcold/club-x`.
        let shipped = try String(contentsOf: TestData.repo("config/mosquitto-hotcold.acl"), encoding: .utf8)
        let acl = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#pattern") && line.contains("club-name") ? String(line.dropFirst()).replacingOccurrences(of: "club-name", with: "club-x")
                : String(line)
        }.joined(separator: "\n")
        try acl.write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"],
                                               anonymous: false)
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: [])
        defer { daemon.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car9",
                                       brokerExtra: [#"username = "t""#, #"password_file = "\#(dir.path("t.pw"))""#],
                                       extra: ["[friends]", #"club = "hotcold/club-x""#])
        defer { bridge.stop() }
        #expect(waitUntil(20) { !bridge.lines(containing: "connected to the broker").isEmpty }, "\(bridge.stderr)")

        // 200 cars of the crowd on the radar (one message each; retained, as bridges publish
        // positions, so none is missed while the bridge subscribes).
        func position(_ n: Int) -> (topic: String, payload: String) {
            ("hotcold/club-x/crowd\(n)/dev/location",
             #"{"time":"\#(ISO8601.format(Date()))","latitude":-30.3,"longitude":\#(153.1 + Double(n) * 0.001),"gps_accuracy":5}"#)
        }
        let script: String = (1...200).map { (n: Int) -> String in
            let p = position(n)
            return "/usr/bin/mosquitto_pub -h 127.0.0.1 -p \(broker.port) -u crowd\(n) -P crowd\(n)-secret -V mqttv5 -q 1 -r -t '\(p.topic)' -m '\(p.payload)'"
        }.joined(separator: " && ")
        try run("/bin/sh", ["-c", script])
        #expect(waitUntil(60) { status(dir).contains("friends: 200 on the radar") }, "\(status(dir))\n\(bridge.stderr.suffix(2000))")

        // The 201st: over the quota. Then a feed item from the crowd's first device.
        let extra = position(201)
        try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", "crowd201", "-P", "crowd201-secret",
                                           "-V", "mqttv5", "-q", "1", "-t", extra.topic, "-m", extra.payload])
        let item = #"{"class":"FEED_ITEM","author":"crowd1","device":"dev","seq":7,"time":"\#(ISO8601.format(Date()))","kind":"arrived","place":{"id":"p-7","name":"Place 7","kind":"point"}}"#
        try run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-u", "crowd1", "-P", "crowd1-secret",
                                           "-V", "mqttv5", "-q", "1", "-t", "hotcold/club-x/crowd1/dev/feed", "-m", item])
        func feedHasIt() throws -> Bool {
            let c = try LineClient(path: dir.path("hc.sock"))
            try c.send(#"{"cmd":"feed","world":true,"limit":50}"#)
            let items = (try c.read(class: "FEED", timeout: 10)["items"] as? [[String: Any]]) ?? []
            return items.contains { $0["id"] as? String == "crowd1/dev/7" }
        }
        #expect(try waitUntil(20) { try feedHasIt() }, "\(bridge.stderr.suffix(2000))")
        var shown = ""
        #expect(waitUntil(20) {
            shown = status(dir)
            return shown.contains("friends: 0 messages ignored, 0 refused for a full inbox, 1 over the daemon's quota")
        }, "\(shown)")
        #expect(bridge.lines(containing: "friends: dropped a friend_fix over the daemon's quota").count == 1, "\(bridge.stderr.suffix(2000))")
    }
}
