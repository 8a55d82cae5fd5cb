import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28: a bridge the daemon counts as its administrator (here it runs as root, as the
/// daemon does) is sent every Unix user's RECORD; it shares only its own configured user's
/// (`[topics] user`). Alice's ratings leave the car as feed items; Bob's, on the same box,
/// never do. Real daemon, real bridge, a real mosquitto with a password file and the shipped
/// ACL, and two real Unix users writing through the socket.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && UnixAccounts.available))
struct FriendsRecordOwnerTests {
    static let banana = "halans:d0577fb8cf", acorns = "halans:9d83c3dee8", coins = "halans:079e79e5cc"

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
    }

    /// Sends one request line as `u` and returns its reply.
    func ask(_ d: DaemonProcess, _ u: UnixUser, _ line: String) throws -> [String: Any] {
        let c = try ForeignClient(uid: u.uid, gid: u.gid, arguments: ["ask", d.socketPath])
        defer { c.finish() }
        c.write(line)
        return try #require(c.readObject(timeout: 60), "no reply to \(line)")
    }

    @Test func onlyTheConfiguredUsersRecordsAreShared() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcra"), bob = try accounts.user("hcrb")
        let dir = try TemporaryDirectory("record-owner")
        defer { dir.remove() }
        try """
            [socket]
            mode = "0666"
            allowed_users = ["\(alice.name)", "\(bob.name)"]
            allowed_groups = []
            """.write(toFile: dir.path("hc.toml"), atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", dir.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.path("passwd"), alice.name, "alice-secret"])
        try "alice-secret\n".write(toFile: dir.path("alice.pw"), atomically: true, encoding: .utf8)
        let shipped = try String(contentsOf: TestData.repo("config/mosquitto-hotcold.acl"), encoding: .utf8)
        try ("topic read #\n" + shipped).write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"])
        defer { broker.stop() }
        let feed = try MQTTSubscriber(port: broker.port, topics: ["hotcold/+/+/feed"])
        defer { feed.stop() }
        let bridge = try BridgeProcess(dir: d.dir, brokerPort: broker.port, device: "car9", user: alice.name,
                                       brokerExtra: [#"username = "\#(alice.name)""#, #"password_file = "\#(dir.path("alice.pw"))""#],
                                       extra: ["[share]", "records = true"])
        defer { bridge.stop() }

        // Alice rates one place, Bob rates and notes another, then Alice a third: her last
        // record leaves after Bob's, so once it is on the broker, Bob's would have been too.
        #expect(try ask(d, alice, #"{"cmd":"store","op":"rate","id":"\#(Self.banana)","stars":4}"#)["class"] as? String == "STORE")
        #expect(try ask(d, bob, #"{"cmd":"store","op":"rate","id":"\#(Self.acorns)","stars":2}"#)["class"] as? String == "STORE")
        #expect(try ask(d, bob, #"{"cmd":"store","op":"note","id":"\#(Self.acorns)","text":"Bob's own thoughts"}"#)["class"] as? String == "STORE")
        #expect(try ask(d, alice, #"{"cmd":"store","op":"rate","id":"\#(Self.coins)","stars":5}"#)["class"] as? String == "STORE")
        let messages = feed.wait { m in m.contains { $0.payload.contains(Self.coins) } }
        let topic = "hotcold/\(alice.name)/car9/feed"
        #expect(messages.contains { $0.topic == topic && $0.payload.contains(Self.banana) && $0.payload.contains(#""kind":"record""#) },
                "\(messages.map(\.payload)); bridge: \(bridge.stderr.suffix(1500))")
        #expect(messages.contains { $0.topic == topic && $0.payload.contains(Self.coins) })
        let bobs = messages.filter { $0.payload.contains(Self.acorns) || $0.payload.contains("Bob's own thoughts") }
        #expect(bobs.isEmpty, "\(bobs.map(\.payload))")
    }

    /// Installed, the bridge is not the daemon's administrator (systemd's dynamic user): it is
    /// sent a user's records only by acting for that user (`act_for`, its user in the daemon's
    /// `[socket] proxies`). Run here as a user of its own: Alice's ratings go out, Bob's never.
    /// Before, such a bridge shared nothing at all.
    @Test func aBridgeThatIsNotTheAdministratorActsForItsUserAndSharesHerRecords() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcqa"), bob = try accounts.user("hcqb"), runner = try accounts.user("hcqm")
        let dir = try TemporaryDirectory("record-proxy")
        defer { dir.remove() }
        chmod(dir.url.path, 0o755)
        try """
            [socket]
            mode = "0666"
            allowed_users = ["\(alice.name)", "\(bob.name)"]
            allowed_groups = []
            proxies = ["\(runner.name)"]
            """.write(toFile: dir.path("hc.toml"), atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", dir.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        chmod(d.dir.url.path, 0o755)
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.path("passwd"), alice.name, "alice-secret"])
        try "alice-secret\n".write(toFile: dir.path("alice.pw"), atomically: true, encoding: .utf8)
        chown(dir.path("alice.pw"), runner.uid, runner.gid)
        let shipped = try String(contentsOf: TestData.repo("config/mosquitto-hotcold.acl"), encoding: .utf8)
        try ("topic read #\n" + shipped).write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"])
        defer { broker.stop() }
        let feed = try MQTTSubscriber(port: broker.port, topics: ["hotcold/+/+/feed"])
        defer { feed.stop() }
        let state = dir.path("bridge-state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chown(state, runner.uid, runner.gid)
        let bridge = try BridgeProcess(dir: d.dir, brokerPort: broker.port, device: "car8", stateDirectory: state, user: alice.name,
                                       brokerExtra: [#"username = "\#(alice.name)""#, #"password_file = "\#(dir.path("alice.pw"))""#],
                                       extra: ["[share]", "records = true"], runAs: runner)
        defer { bridge.stop() }
        // Wait until the bridge says it acts for Alice (it then streams).
        let deadline = Date().addingTimeInterval(60)
        while bridge.lines(containing: "sharing the ratings and notes of \(alice.name)").isEmpty, Date() < deadline { usleep(50_000) }
        #expect(!bridge.lines(containing: "sharing the ratings and notes of \(alice.name)").isEmpty, "\(bridge.stderr.suffix(1500))")

        #expect(try ask(d, alice, #"{"cmd":"store","op":"rate","id":"\#(Self.banana)","stars":4}"#)["class"] as? String == "STORE")
        #expect(try ask(d, bob, #"{"cmd":"store","op":"note","id":"\#(Self.acorns)","text":"Bob's own thoughts"}"#)["class"] as? String == "STORE")
        #expect(try ask(d, alice, #"{"cmd":"store","op":"rate","id":"\#(Self.coins)","stars":0}"#)["class"] as? String == "STORE")
        let messages = feed.wait { m in m.contains { $0.payload.contains(Self.coins) } }
        let topic = "hotcold/\(alice.name)/car8/feed"
        #expect(messages.contains { $0.topic == topic && $0.payload.contains(Self.banana) && $0.payload.contains(#""rating":4"#) },
                "\(messages.map(\.payload)); bridge: \(bridge.stderr.suffix(1500))")
        #expect(messages.contains { $0.topic == topic && $0.payload.contains(Self.coins) && $0.payload.contains(#""rating":0"#) })
        #expect(!messages.contains { $0.payload.contains(Self.acorns) || $0.payload.contains("Bob's own thoughts") })
    }
}
