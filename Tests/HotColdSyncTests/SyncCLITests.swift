import Foundation
import HotColdStore
import HotColdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `hotcold` against the reference server: kill -9 mid-flight, photos, errors.
@Suite(.serialized) struct SyncCLITests {
    func api(_ server: ReferenceServer) -> [String] { ["--api", server.url.absoluteString, "--allow-http-loopback", "--timeout", "30"] }

    /// `hotcold sync` is killed with SIGKILL while its request hangs — before the server
    /// processed it, or after — then run again: the server counts the rating exactly once.
    @Test(arguments: ["before", "after"])
    func killDashNineMidFlightThenRerun(when: String) async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        #expect(try f.hotcold(["sync"] + api(server)).status == 0)
        #expect(try f.hotcold(["rate", "api:banana", "4"]).status == 0)
        try await server.faults([["action": "hang", "when": when, "path": "ratings"]])

        let p = Process()
        p.executableURL = Binaries.url("hotcold")
        p.arguments = ["sync", "--db", f.dbPath] + api(server)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let hung = try await server.wait { ($0["hanging"] as? Int) == 1 }
        #expect(hung, "the sync's request reached the server")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        try await server.release()

        let pendingAfterKill = try f.hotcold(["outbox", "--json"])
        #expect(pendingAfterKill.stdout.contains("\"state\" : \"pending\""))
        let rerun = try f.hotcold(["sync"] + api(server))
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("Outbox: 1 delivered, 0 failed, 0 pending."), "\(rerun.stdout)")
        let s = try await server.state()
        #expect(s["ratings_counted"] as? Int == 1)
        #expect(s["rating_posts"] as? Int == (when == "after" ? 2 : 1))
        #expect((s["votes"] as? [String: [String: Any]])?["api:banana"]?["votes"] as? Int == 11)
        let listing = try f.hotcold(["outbox"])
        #expect(listing.stdout.contains("0 pending, 1 delivered, 0 failed."))
    }

    @Test func photoSubmissionArrivesIntact() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        var bytes = [UInt8](repeating: 0, count: 200_000)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in bytes.indices { seed = seed &* 6364136223846793005 &+ 1442695040888963407; bytes[i] = UInt8(seed >> 56) }
        let photo = f.dir.path("wombat.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: photo))

        let missing = try f.hotcold(["submit", "Big Koala", "--address", "Dadswells Bridge VIC", "--photo", f.dir.path("nope.jpg")])
        #expect(missing.status != 0 && missing.stderr.contains("Cannot read the photo") && missing.stderr.contains("Nothing was queued"))
        #expect(try f.hotcold(["outbox"]).stdout.contains("The outbox is empty."))

        let sub = try f.hotcold(["submit", "Big Wombat", "--at", "-35.28,149.13", "--by", "Alice", "--photo", photo])
        #expect(sub.status == 0 && sub.stdout.contains("200000 bytes"), "\(sub.stderr)")
        // No number that `outbox` would not show (issue 31); `outbox` lists it by name.
        #expect(!sub.stdout.contains("#") && sub.stdout.contains("hotcold outbox"), "\(sub.stdout)")
        #expect(try f.hotcold(["outbox"]).stdout.contains("Big Wombat"))
        // The file may go away: its bytes are in the outbox already.
        try FileManager.default.removeItem(atPath: photo)
        let r = try f.hotcold(["sync"] + api(server))
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
        let f = try SyncFixture(); defer { f.remove() }
        let port = try FreePort.tcp()
        let refused = try f.hotcold(["sync", "--api", "http://127.0.0.1:\(port)", "--allow-http-loopback", "--max-wait", "0"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Cannot reach the Big Things API at http://127.0.0.1:\(port)/bigthings"), "\(refused.stderr)")

        let server = try ReferenceServer(); defer { server.stop() }
        try await server.faults([["action": "hang", "count": 10]])
        let started = Date()
        let hung = try f.hotcold(["sync", "--api", server.url.absoluteString, "--allow-http-loopback", "--timeout", "1", "--max-wait", "0"])
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(hung.status != 0 && hung.stderr.contains("Cannot reach the Big Things API at \(server.url.absoluteString)/bigthings: the server did not finish within 1 s"),
                "\(hung.stderr)")
        try await server.release()

        let none = try f.hotcold(["sync", "--config", TestData.repo("config/hotcoldd.toml").path])
        #expect(none.status != 0 && none.stderr.contains("No web API is configured"))
    }

    @Test func rateQueuesAndOutboxListsReasons() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        #expect(try f.hotcold(["sync"] + api(server)).status == 0)
        try await server.control("remove", ["ids": ["api:prawn"]])
        #expect(try f.hotcold(["rate", "api:prawn", "2"]).status == 0)
        let r = try f.hotcold(["sync", "--api", server.url.absoluteString, "--allow-http-loopback", "--json"])
        // The pull withdraws the prawn; the rating was queued before and is refused (404), kept.
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(report?["withdrawn"] as? [String] == ["api:prawn"])
        #expect((report?["failed"] as? [[String: Any]])?.first?["http_status"] as? Int == 404)
        #expect(report?["pending"] as? Int == 0 && (report?["delivered"] as? [Any])?.isEmpty == true)
        let list = try f.hotcold(["outbox"])
        #expect(list.stdout.contains("failed") && list.stdout.contains("HTTP 404: no Big Thing has the id api:prawn"))
        let json = try f.hotcold(["outbox", "--json"])
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
