import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// No client can hurt the daemon: the built hotcoldd (run as root) tracks a real gpsd fed over
/// UDP while clients of other, real Unix users (made with useradd, connected through
/// `setpriv` so the kernel reports their credentials) misbehave. In each test the daemon goes
/// on counting fixes and answering everyone else.
@Suite(.offCooperativePool, .serialized, .enabled(if: UnixAccounts.available && GPSDHarness.gpsdAvailable))
struct HostileClientTests {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
    static let banana = "halans:d0577fb8cf"

    /// gpsd, the daemon (socket 0666, the given users allowed to write), a feeder and a root
    /// client watching; torn down by `stop()`.
    final class Rig {
        let gpsd: GPSDHarness
        let daemon: DaemonProcess
        let feeder: NMEAFeeder
        let root: LineClient
        let config: TemporaryDirectory
        let accounts: UnixAccounts

        /// On failure the accounts are removed too.
        convenience init(allowed: [String], extra: String, track: SyntheticTrack, accounts: UnixAccounts) throws {
            do { try self.init(allowed, extra, track, accounts) } catch {
                accounts.remove()
                throw error
            }
        }

        private init(_ allowed: [String], _ extra: String, _ track: SyntheticTrack, _ accounts: UnixAccounts) throws {
            self.accounts = accounts
            config = try TemporaryDirectory("hotcold-hostile")
            let p = track.point(second: 600)
            try """
                [socket]
                mode = "0666"
                allowed_users = [\(allowed.map { "\"\($0)\"" }.joined(separator: ", "))]
                allowed_groups = []
                \(extra)
                """.write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
            gpsd = try GPSDHarness.udp()
            // scripts/bench-bounds and a before/after check point this at another build.
            let other = ProcessInfo.processInfo.environment["HOTCOLDD_UNDER_TEST"].map { URL(fileURLWithPath: $0) }
            daemon = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "\(p.latitude),\(p.longitude),Far Thing"], executable: other)
            root = try daemon.connect()
            _ = try root.read(class: "VERSION")
            try root.waitUntilGPSDConnected()
            feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
            feeder.start()
        }

        /// Fixes the engine has taken so far (status, as root).
        func fixes() throws -> Int {
            try root.send(#"{"cmd":"status"}"#)
            let s = try root.read(class: "STATUS", timeout: 10)
            return (s["counters"] as? [String: Any])?["fixes"] as? Int ?? -1
        }

        /// True when the fix count rises past `before` within 10 s: still tracking.
        func tracksOn(after before: Int) throws -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if try fixes() > before { return true }
                usleep(100_000)
            }
            return false
        }

        func client(_ u: UnixUser, _ args: [String]) throws -> ForeignClient {
            try ForeignClient(uid: u.uid, gid: u.gid, arguments: args)
        }

        func stop() {
            feeder.stop()
            daemon.stop()
            gpsd.terminate()
            config.remove()
            accounts.remove()
        }
    }

    /// Sends lines as `u` (request, reply, request, …) and returns the replies.
    func ask(_ rig: Rig, _ u: UnixUser, _ lines: [String]) throws -> [[String: Any]] {
        let c = try rig.client(u, ["ask", rig.daemon.socketPath])
        defer { c.finish() }
        var out: [[String: Any]] = []
        for l in lines {
            c.write(l)
            out.append(try #require(c.readObject(timeout: 30), "no reply to \(l)"))
        }
        return out
    }

    func flood(_ rig: Rig, _ u: UnixUser, count: Int, template: String) throws -> ForeignClient {
        let file = rig.config.path("template-\(UUID().uuidString.prefix(4)).txt")
        try template.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        return try rig.client(u, ["flood", rig.daemon.socketPath, String(count), file])
    }

    /// Two users made before the daemon starts (so its configuration can name them).
    func twoUsers() throws -> (UnixAccounts, UnixUser, UnixUser) {
        let accounts = UnixAccounts()
        do { return (accounts, try accounts.user("hcca"), try accounts.user("hccb")) } catch { accounts.remove(); throw error }
    }

    @Test func aPipeliningWriterSlowsOnlyItself() throws {
        let (accounts, writer, other) = try twoUsers()
        let rig = try Rig(allowed: [writer.name, other.name], extra: "write_burst = 100000\nwrites_per_second = 100000",
                          track: track, accounts: accounts)
        defer { rig.stop() }
        let before = try rig.fixes()
        let n = 3000
        let c = try flood(rig, writer, count: n,
                          template: #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"n{i}"}"#)
        // While the writer's 3,000 notes go in one by one, root and another user are answered.
        var roundTrips: [Double] = []
        for _ in 0..<20 {
            let t = Date()
            _ = try rig.fixes()
            roundTrips.append(Date().timeIntervalSince(t) * 1000)
        }
        let otherReplies = try ask(rig, other, [#"{"cmd":"status"}"#, #"{"cmd":"store","op":"fav","id":"\#(Self.banana)"}"#])
        #expect(otherReplies.map { $0["class"] as? String } == ["STATUS", "STORE"])
        let out = try #require(c.readObject(timeout: 120))
        c.finish()
        let replies = (out["replies"] as? [String] ?? []).compactMap(LineClient.object)
        #expect(replies.count == n)
        // One write in flight per connection: every reply in the order of its command.
        let texts = replies.map { ($0["result"] as? [String: Any])?["text"] as? String ?? "\($0)" }
        #expect(texts == (0..<n).map { "n\($0)" }, "first out of order: \(zip(texts, 0..<n).first { $0.0 != "n\($0.1)" }.map { "\($0)" } ?? "-")")
        print("FIGURES status round trip during a 3000-write pipeline: median \(roundTrips.sorted()[10]) ms, max \(roundTrips.max()!) ms")
        #expect(try rig.tracksOn(after: before))
        #expect(rig.daemon.process.isRunning)
    }

    @Test func aWriteFloodBeyondTheRateIsRefusedAsBusy() throws {
        let (accounts, flooder, other) = try twoUsers()
        let rig = try Rig(allowed: [flooder.name, other.name], extra: "", track: track, accounts: accounts)   // burst 20, 5/s
        defer { rig.stop() }
        let before = try rig.fixes()
        let start = Date()
        let c = try flood(rig, flooder, count: 500, template: #"{"cmd":"store","op":"seen","id":"\#(Self.banana)"}"#)
        let out = try #require(c.readObject(timeout: 120))
        let took = Date().timeIntervalSince(start)
        c.finish()
        let replies = (out["replies"] as? [String] ?? []).compactMap(LineClient.object)
        #expect(replies.count == 500)
        let stored = replies.filter { $0["class"] as? String == "STORE" }.count
        let busy = replies.filter { $0["code"] as? String == "busy" && ($0["message"] as? String)?.hasPrefix("store: \(flooder.name) (uid") == true }
        #expect(stored >= 20 && Double(stored) <= 20 + 5 * took + 1, "\(stored) stored in \(took) s")
        #expect(stored + busy.count == 500)
        #expect((busy.first?["message"] as? String)?.contains("write rate of 20 at once and 5 per second") == true)
        // Another user's bucket is its own; root answers and tracking go on.
        let mine = try ask(rig, other, [#"{"cmd":"store","op":"seen","id":"\#(Self.banana)"}"#])
        #expect(mine.first?["class"] as? String == "STORE")
        #expect(try rig.tracksOn(after: before))
    }

    @Test func aUserOverTheConnectionCapIsRefusedOthersAreNot() throws {
        let (accounts, hog, other) = try twoUsers()
        let rig = try Rig(allowed: [], extra: "max_clients_per_user = 8", track: track, accounts: accounts)
        defer { rig.stop() }
        let before = try rig.fixes()
        let c = try rig.client(hog, ["connect", rig.daemon.socketPath, "12"])
        let held = try #require(c.readObject(timeout: 60))
        #expect(held["greeted"] as? Int == 8)
        let refused = held["refused"] as? [String] ?? []
        #expect(refused.count == 4)
        #expect(refused.allSatisfy { $0.contains("too many connections from uid \(hog.uid) (at most 8 per user") }, "\(refused)")
        // Meanwhile another user and root are served.
        #expect(try ask(rig, other, [#"{"cmd":"status"}"#]).first?["class"] as? String == "STATUS")
        #expect(try rig.tracksOn(after: before))
        // The hog's connections closed, it may connect again.
        c.finish()
        usleep(300_000)
        let again = try rig.client(hog, ["connect", rig.daemon.socketPath, "8"])
        #expect(again.readObject(timeout: 60)?["greeted"] as? Int == 8)
        again.finish()
    }

    @Test func aQuotaReachedNamesItselfAndStopsOnlyThatUser() throws {
        let (accounts, a, b) = try twoUsers()
        let rig = try Rig(allowed: [a.name, b.name], extra: "[quotas]\nlocations_per_user = 5", track: track, accounts: accounts)
        defer { rig.stop() }
        let before = try rig.fixes()
        let adds = (0..<6).map { #"{"cmd":"store","op":"add","name":"Spot \#($0)","lat":-30.3,"lon":153.1}"# }
        let replies = try ask(rig, a, adds)
        #expect(replies.prefix(5).allSatisfy { $0["class"] as? String == "STORE" })
        let refusal = replies.last?["message"] as? String ?? ""
        #expect(refusal.contains("locations_per_user is 5") && refusal.contains(a.name), "\(refusal)")
        #expect(try ask(rig, b, [adds[0]]).first?["class"] as? String == "STORE")
        #expect(try rig.tracksOn(after: before))
    }

    @Test func renamingOrDeletingAnotherUsersLocationIsRefused() throws {
        let (accounts, owner, intruder) = try twoUsers()
        let rig = try Rig(allowed: [owner.name, intruder.name], extra: "", track: track, accounts: accounts)
        defer { rig.stop() }
        let before = try rig.fixes()
        let added = try ask(rig, owner, [#"{"cmd":"store","op":"add","name":"Camp","lat":-30.3,"lon":153.1}"#])
        let id = try #require((added.first?["result"] as? [String: Any])?["id"] as? String)
        let refused = try ask(rig, intruder, [#"{"cmd":"store","op":"rename","id":"\#(id)","name":"Mine now"}"#])
        let message = refused.first?["message"] as? String ?? ""
        #expect(refused.first?["class"] as? String == "ERROR")
        #expect(message.contains("added by \(owner.name), not \(intruder.name)"), "\(message)")
        let renamed = try ask(rig, owner, [#"{"cmd":"store","op":"rename","id":"\#(id)","name":"Base camp"}"#])
        #expect((renamed.first?["result"] as? [String: Any])?["name"] as? String == "Base camp")
        // Deleting follows the same rule; and a place someone else has records of stays.
        let noDelete = try ask(rig, intruder, [#"{"cmd":"store","op":"delete","id":"\#(id)"}"#])
        #expect(noDelete.first?["code"] as? String == "not_allowed", "\(noDelete)")
        _ = try ask(rig, intruder, [#"{"cmd":"store","op":"fav","id":"\#(id)"}"#])
        let inUse = try ask(rig, owner, [#"{"cmd":"store","op":"delete","id":"\#(id)"}"#])
        #expect(inUse.first?["code"] as? String == "not_allowed", "\(inUse)")
        _ = try ask(rig, intruder, [#"{"cmd":"store","op":"unfav","id":"\#(id)"}"#])
        let deleted = try ask(rig, owner, [#"{"cmd":"store","op":"delete","id":"\#(id)"}"#])
        #expect((deleted.first?["result"] as? [String: Any])?["name"] as? String == "Base camp", "\(deleted)")
        let gone = try ask(rig, owner, [#"{"cmd":"place","id":"\#(id)"}"#])
        #expect(gone.first?["code"] as? String == "not_found", "\(gone)")
        #expect(try rig.tracksOn(after: before))
    }

    @Test func aUIDWithoutAPasswdEntryIsRecordedAsHashUID() throws {
        let uid = UnixAccounts.unusedUID()
        let accounts = UnixAccounts()
        let other = try accounts.user("hcco")
        let rig = try Rig(allowed: [String(uid), other.name], extra: "", track: track, accounts: accounts)
        defer { rig.stop() }
        let before = try rig.fixes()
        let c = try ForeignClient(uid: uid, gid: uid, arguments: ["ask", rig.daemon.socketPath])
        c.write(#"{"cmd":"store","op":"observe","classification":"bird","title":"Kookaburra","date":"2024-05-01T00:00:00Z"}"#)
        let reply = try #require(c.readObject(timeout: 30))
        c.write(#"{"cmd":"store","op":"add","name":"Nameless","lat":-30.3,"lon":153.1}"#)
        let added = try #require(c.readObject(timeout: 30))
        c.finish()
        #expect((reply["result"] as? [String: Any])?["user"] as? String == "#\(uid)", "\(reply)")
        // Nobody else can rename what "#uid" made, root's daemon user included.
        let id = try #require((added["result"] as? [String: Any])?["id"] as? String)
        let refused = try ask(rig, other, [#"{"cmd":"store","op":"rename","id":"\#(id)","name":"Taken"}"#])
        #expect((refused.first?["message"] as? String)?.contains("added by #\(uid)") == true, "\(refused)")
        #expect(try rig.tracksOn(after: before))
    }
}
