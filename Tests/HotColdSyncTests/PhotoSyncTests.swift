import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import HotColdCore
import HotColdFormats
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A submission's photo from the daemon to the web API: hotcold-sync streams the body, a
/// slice at a time, and never holds the photo; an outbox queued by the previous version (its
/// photos as base64 inside the rows) is delivered after the upgrade, byte for byte.
@Suite(.offCooperativePool, .serialized) struct PhotoSyncTests {
    /// A JPEG of `size` bytes: a real JPEG's head, then random bytes.
    static func jpeg(_ size: Int, seed: UInt64) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: TestData.repo("Tests/Photos/wombat.jpg")).prefix(20))
        var rng = SeededRandom(seed: seed)
        while bytes.count < size { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }
        return bytes
    }

    /// `hotcold-sync --once` under GNU time: its exit status and its peak RSS in KiB.
    static func syncOnce(_ rig: SyncServiceTests.Rig) throws -> (status: Int32, peakKiB: Int, stderr: String) {
        let report = rig.daemon.dir.path("time-\(UUID().uuidString)")
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/time"),
                                   ["-f", "%M", "-o", report, Binaries.url("hotcold-sync").path, "--once", "--config", rig.config,
                                    "--socket", rig.daemon.socketPath, "--api", rig.server.url.absoluteString, "--allow-http-loopback",
                                    "--timeout", "60"])
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        return (r.status, Int(text.split(separator: "\n").last.map { String($0) } ?? "") ?? 0, r.stderr)
    }

    @Test("hotcold-sync delivers a 10 MiB photo without holding it: its peak memory grows by far less than the photo's base64")
    func theBodyIsStreamed() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time")
        let server = try ReferenceServer(); defer { server.stop() }
        let rig = try SyncServiceTests.Rig(server: server); defer { rig.stop() }
        // The catalogue first, then a sync with nothing to send: the process's own floor.
        #expect(try Self.syncOnce(rig).status == 0)
        let idle = try Self.syncOnce(rig)
        #expect(idle.status == 0 && idle.peakKiB > 0, "\(idle.stderr)")
        // A 10 MiB photo, submitted as a phone's is: uploaded in chunks, kept in a file.
        let photo = try Self.jpeg(10 << 20, seed: 42)
        let file = rig.daemon.dir.path("big.jpg")
        try Data(photo).write(to: URL(fileURLWithPath: file))
        let sub = try Subprocess.run(Binaries.url("hotcold"), ["submit", "Big Streamed", "--at", "-35.28,149.13", "--photo", file,
                                                               "--socket", rig.daemon.socketPath])
        #expect(sub.status == 0, "\(sub.stderr)")
        let busy = try Self.syncOnce(rig)
        #expect(busy.status == 0, "\(busy.stderr)")
        let got = (try await server.state()["submissions"] as? [[String: Any]])?.first?["photo"] as? [String: Any]
        #expect(got?["size"] as? Int == photo.count && got?["sha256"] as? String == SyncCLITests.sha256Hex(photo))
        // Held whole, the body alone is 13.3 MiB (and was held twice over): streamed, a few slices.
        let grown = busy.peakKiB - idle.peakKiB
        #expect(grown < 8 << 10, "hotcold-sync's peak grew by \(grown) KiB (\(idle.peakKiB) -> \(busy.peakKiB)) sending a 10 MiB photo")
        // Delivered: the daemon's photo file went with it.
        let photos = (try? FileManager.default.contentsOfDirectory(atPath: rig.daemon.dir.path("photos"))) ?? ["?"]
        #expect(photos.isEmpty, "\(photos)")
    }

    /// The body the previous version queued for a submission: sorted keys, the photo inline.
    struct OldBody: Encodable {
        struct Photo: Encodable {
            var filename: String
            var contentType: String
            var dataBase64: String
            enum CodingKeys: String, CodingKey { case filename, contentType = "content_type", dataBase64 = "data_base64" }
        }
        var name: String
        var lat: Double
        var lon: Double
        var seenAt: String
        var submittedBy: String
        var photo: Photo
        enum CodingKeys: String, CodingKey { case name, lat, lon, seenAt = "seen_at", submittedBy = "submitted_by", photo }
    }

    /// The schema as the previous version left it, and a submission it queued with `payload`.
    static func oldDatabase(at path: String, payload: Data) throws {
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v8-feed-owner")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO submission (id, user, name, latitude, longitude, seen_at, submitted_by, photo_path, created_at)
                VALUES (1, 'root', 'Big Old', -35.28, 149.13, '2026-11-25T10:00:00.000Z', 'Alice', 'old.jpg', '2026-11-25T10:00:01.000Z')
                """)
            try db.execute(sql: """
                INSERT INTO outbox (kind, idempotency_key, path, payload, user, submission_id, state, attempts, created_at, next_attempt_at)
                VALUES ('submission', 'old-key-1', 'bigthings/submissions', ?, 'root', 1, 'pending', 0,
                        '2026-11-25T10:00:01.000Z', '2026-11-25T10:00:01.000Z')
                """, arguments: [payload])
        }
    }

    @Test("an outbox queued before the upgrade, photos inline, is delivered after it: the same bytes the old version would send")
    func anOldOutboxIsDelivered() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let dir = try TemporaryDirectory("photo-upgrade"); defer { dir.remove() }
        let db = dir.path("old.sqlite")
        let photo = try Self.jpeg(600_000, seed: 9)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(OldBody(name: "Big Old", lat: -35.28, lon: 149.13, seenAt: "2026-11-25T10:00:00.000Z",
                                              submittedBy: "Alice",
                                              photo: .init(filename: "old.jpg", contentType: "image/jpeg", dataBase64: Data(photo).base64EncodedString())))
        try Self.oldDatabase(at: db, payload: body)
        let rig = try SyncServiceTests.Rig(server: server, daemonArgs: ["--db", db])
        defer { rig.stop() }
        let r = try Self.syncOnce(rig)
        #expect(r.status == 0, "\(r.stderr)")
        let subs = try await server.state()["submissions"] as? [[String: Any]] ?? []
        #expect(subs.count == 1 && subs.first?["key"] as? String == "old-key-1")
        let got = subs.first?["photo"] as? [String: Any]
        #expect(got?["size"] as? Int == photo.count && got?["sha256"] as? String == SyncCLITests.sha256Hex(photo))
        // The server saw exactly the old body: the same key with these bytes is a repeat, not a conflict.
        var request = URLRequest(url: server.url.appendingPathComponent("bigthings/submissions"))
        request.httpMethod = "POST"
        request.setValue("old-key-1", forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = body
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "the resend of the old bytes is the same request")
    }
}
