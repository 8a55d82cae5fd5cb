import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hotcold-sync --once` (a timer's sync, or a person's) against the reference server, through a
/// real daemon — the only way there is to sync: kill -9 mid-flight, photos, errors named,
/// refusals kept with their reasons. (`hotcold sync --db` is gone: the command-line client
/// links no HTTP or TLS, and hotcold-sync no SQLite.)
@Suite(.offCooperativePool, .serialized) struct SyncCLITests {
    /// A daemon, and the two clients run as people would.
    struct Box {
        let rig: SyncServiceTests.Rig

        init(_ server: ReferenceServer) throws { rig = try SyncServiceTests.Rig(server: server) }

        func api(_ server: ReferenceServer, timeout: Int = 30) -> [String] {
            ["--api", server.url.absoluteString, "--allow-http-loopback", "--timeout", "\(timeout)"]
        }

        /// `hotcold-sync --once` with this daemon's socket and an empty configuration.
        @discardableResult
        func syncOnce(_ args: [String]) throws -> ProcessResult {
            try Subprocess.run(Binaries.url("hotcold-sync"), ["--once", "--config", rig.config, "--socket", rig.daemon.socketPath] + args)
        }

        @discardableResult
        func hotcold(_ args: [String]) throws -> ProcessResult {
            try Subprocess.run(Binaries.url("hotcold"), args + ["--socket", rig.daemon.socketPath])
        }

        func stop() { rig.stop() }
    }

    /// `hotcold-sync --once` killed with SIGKILL while its request hangs — before the server
    /// processed it, or after — then run again: the server counts the rating exactly once.
    @Test(arguments: ["before", "after"])
    func killDashNineMidFlightThenRerun(when: String) async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let box = try Box(server); defer { box.stop() }
        #expect(try box.syncOnce(box.api(server)).status == 0)
        #expect(try box.hotcold(["rate", "api:banana", "4"]).status == 0)
        try await server.faults([["action": "hang", "when": when, "path": "ratings"]])

        let p = Process()
        p.executableURL = Binaries.url("hotcold-sync")
        p.arguments = ["--once", "--config", box.rig.config, "--socket", box.rig.daemon.socketPath] + box.api(server)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let hung = try await server.wait { ($0["hanging"] as? Int) == 1 }
        #expect(hung, "the sync's request reached the server")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        try await server.release()

        let pendingAfterKill = try box.hotcold(["outbox", "--json"])
        #expect(pendingAfterKill.stdout.contains("\"state\" : \"pending\""), "\(pendingAfterKill.stdout)")
        let rerun = try box.syncOnce(box.api(server))
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("Outbox: 1 delivered, 0 failed, 0 pending."), "\(rerun.stdout)")
        let s = try await server.state()
        #expect(s["ratings_counted"] as? Int == 1)
        #expect(s["rating_posts"] as? Int == (when == "after" ? 2 : 1))
        #expect((s["votes"] as? [String: [String: Any]])?["api:banana"]?["votes"] as? Int == 11)
        let listing = try box.hotcold(["outbox"])
        #expect(listing.stdout.contains("0 pending, 1 delivered, 0 failed."), "\(listing.stdout)")
    }

    @Test func photoSubmissionArrivesIntact() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let box = try Box(server); defer { box.stop() }
        let dir = try TemporaryDirectory("sync-photo"); defer { dir.remove() }
        var bytes = [UInt8](repeating: 0, count: 200_000)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in bytes.indices { seed = seed &* 6364136223846793005 &+ 1442695040888963407; bytes[i] = UInt8(seed >> 56) }
        bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])    // a JPEG's signature: the content is checked
        let photo = dir.path("wombat.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: photo))

        let missing = try box.hotcold(["submit", "Big Koala", "--address", "Dadswells Bridge VIC", "--photo", dir.path("nope.jpg")])
        #expect(missing.status != 0 && missing.stderr.contains("Cannot read the photo") && missing.stderr.contains("Nothing was queued"),
                "\(missing.stderr)")
        #expect(try box.hotcold(["outbox"]).stdout.contains("The outbox is empty."))

        let sub = try box.hotcold(["submit", "Big Wombat", "--at", "-35.28,149.13", "--by", "Alice", "--photo", photo])
        #expect(sub.status == 0 && sub.stdout.contains("200000 bytes"), "\(sub.stderr)")
        // No number that `outbox` would not show (issue 31); `outbox` lists it by name.
        #expect(!sub.stdout.contains("#") && sub.stdout.contains("hotcold outbox") && sub.stdout.contains("hotcold-sync sends it"),
                "\(sub.stdout)")
        #expect(try box.hotcold(["outbox"]).stdout.contains("Big Wombat"))
        // The file may go away: its bytes are in the outbox already.
        try FileManager.default.removeItem(atPath: photo)
        let r = try box.syncOnce(box.api(server))
        #expect(r.status == 0, "\(r.stderr)")
        let subs = try await server.state()["submissions"] as? [[String: Any]] ?? []
        #expect(subs.count == 1)
        let got = subs.first?["photo"] as? [String: Any]
        #expect(got?["size"] as? Int == 200_000)
        #expect(got?["sha256"] as? String == Self.sha256Hex(bytes))
        #expect(got?["filename"] as? String == "wombat.jpg" && got?["content_type"] as? String == "image/jpeg")
        #expect(subs.first?["submitted_by"] as? String == "Alice" && subs.first?["lat"] as? Double == -35.28)
    }

    @Test func unreachableAndHungServersAreNamed() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let box = try Box(server); defer { box.stop() }
        let port = try FreePort.tcp()
        let refused = try box.syncOnce(["--api", "http://127.0.0.1:\(port)", "--allow-http-loopback", "--max-wait", "0"])
        #expect(refused.status != 0)
        // Named as what it is, not as a 30-second timeout.
        #expect(refused.stderr.contains("Cannot reach the Big Things API at http://127.0.0.1:\(port)/bigthings: connection refused"),
                "\(refused.stderr)")

        try await server.faults([["action": "hang", "count": 10]])
        let hung = try box.syncOnce(["--api", server.url.absoluteString, "--allow-http-loopback", "--timeout", "1", "--max-wait", "0"])
        #expect(hung.status != 0 && hung.stderr.contains("Cannot reach the Big Things API at \(server.url.absoluteString)/bigthings: the server did not finish within 1 s"),
                "\(hung.stderr)")
        try await server.release()

        let none = try box.syncOnce([])
        #expect(none.status == 78 && none.stderr.contains("no web API is configured"), "\(none.stderr)")
    }

    @Test func rateQueuesAndOutboxListsReasons() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let box = try Box(server); defer { box.stop() }
        #expect(try box.syncOnce(box.api(server)).status == 0)
        try await server.control("remove", ["ids": ["api:prawn"]])
        #expect(try box.hotcold(["rate", "api:prawn", "2"]).status == 0)
        let r = try box.syncOnce(box.api(server))
        // The pull withdraws the prawn; the rating was queued before and is refused (404), kept.
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 withdrawn") || r.stdout.contains("api:prawn"), "\(r.stdout)")
        #expect(r.stdout.contains("0 delivered, 1 failed, 0 pending"), "\(r.stdout)")
        let list = try box.hotcold(["outbox"])
        #expect(list.stdout.contains("failed") && list.stdout.contains("HTTP 404: no Big Thing has the id api:prawn"), "\(list.stdout)")
        let json = try box.hotcold(["outbox", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(items?.first?["last_error"] as? String == "no Big Thing has the id api:prawn")
        #expect(items?.first?["state"] as? String == "failed")
    }

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try? Data(bytes).write(to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let r = try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [tmp.path])
        return r?.stdout.split(separator: " ").first.map(String.init) ?? ""
    }
}
