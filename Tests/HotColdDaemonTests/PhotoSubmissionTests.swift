import Foundation
import Glibc
import HotColdCore
@testable import HotColdDaemon
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Photos submitted through the socket, against the daemon built in process: their content
/// checked against their declared type at the socket, kept in a file of the daemon's (never
/// in its memory or its database), given to `hotcold-sync` as the same body as ever, removed
/// once delivered or refused, and a submission sent again with its key stored once.
@Suite(.offCooperativePool, .serialized) struct PhotoSubmissionTests {
    static func photo(_ name: String) throws -> Data { try Data(contentsOf: TestData.repo("Tests/Photos/" + name)) }

    /// A JPEG of `size` bytes: a real JPEG's header, then random bytes (nothing compresses them).
    static func bigJPEG(_ size: Int, seed: UInt64 = 7) throws -> Data {
        var d = try photo("wombat.jpg").prefix(20)
        var rng = SeededRandom(seed: seed)
        var rest = [UInt8](repeating: 0, count: size - d.count)
        for i in rest.indices { rest[i] = UInt8(truncatingIfNeeded: rng.next()) }
        d.append(contentsOf: rest)
        return d
    }

    static func submit(_ name: String, key: String? = nil, upload: String?, type: String = "image/jpeg") -> Request {
        .submit(SubmitRequest(name: name, at: Coordinate(latitude: -35.28, longitude: 149.13), by: "Alice",
                              seenAt: Date(timeIntervalSince1970: 1_780_000_000),
                              photo: upload.map { .init(upload: $0, filename: "\(name).jpg", contentType: type) }, key: key))
    }

    /// Uploads `photo` and submits it on one connection; the reply line (an ERROR included).
    static func send(_ daemon: InProcessDaemon, _ photo: Data, name: String, type: String = "image/jpeg",
                     key: String? = nil, actFor uid: UInt32? = nil) async throws -> String {
        let path = daemon.configuration.socket.path
        return try await InProcessDaemon.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            if let uid {
                try c.send(.actFor(ActForRequest(uid: uid)))
                _ = try c.line(ofClass: ActingReply.wireClass)
            }
            let id = try c.upload(photo, purpose: .photo)
            try c.send(submit(name, key: key, upload: id, type: type))
            guard let line = try c.readLine(timeout: 60) else { throw ClientError.closed(path: path, waitingFor: "SUBMIT") }
            return line
        }
    }

    static func photoFiles(_ daemon: InProcessDaemon) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: daemon.dir.path("state/photos"))) ?? []).sorted()
    }

    static func outbox(_ daemon: InProcessDaemon) async throws -> [[String: Any]] {
        let line = try await daemon.ask(.outbox)
        return try #require(LineClient.object(line)?["result"] as? [[String: Any]], "\(line)")
    }

    static func bytes(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// The database's bytes on disk: the file and its write-ahead log.
    static func databaseBytes(_ daemon: InProcessDaemon) -> Int {
        bytes(daemon.dir.path("state/hotcold.sqlite")) + bytes(daemon.dir.path("state/hotcold.sqlite-wal"))
    }

    /// The body `hotcold-sync` is given for the first waiting item, read as it reads it.
    static func body(_ daemon: InProcessDaemon) async throws -> (id: Int64, body: Data, inline: Bool) {
        let path = daemon.configuration.socket.path
        return try await InProcessDaemon.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            let next = try c.call(.sync(SyncRequest(.next(after: 0))), result: .sync, as: SyncResult.Next.self)
            let item = try #require(next.item)
            if next.payloadInline { return (item.id, item.payload, true) }
            var body = Data()
            while body.count < next.payloadBytes {
                let slice = try c.call(.sync(SyncRequest(.payload(id: item.id, offset: body.count))), result: .sync, as: SyncResult.Slice.self)
                #expect(slice.total == next.payloadBytes && !slice.data.isEmpty)
                body.append(slice.data)
            }
            return (item.id, body, false)
        }
    }

    // MARK: - Content checked at the socket

    @Test("at the socket: an ELF as image/webp, HTML as image/jpeg and a type no photo has are refused; real photos of each type are queued")
    func contentIsChecked() async throws {
        let daemon = try InProcessDaemon()
        let elf = try Data(contentsOf: URL(fileURLWithPath: "/bin/true")).prefix(64 << 10)
        let webp = try #require(LineClient.object(try await Self.send(daemon, Data(elf), name: "Elf", type: "image/webp")))
        #expect(webp["class"] as? String == "ERROR" && webp["code"] as? String == "bad_field" && webp["field"] as? String == "content_type")
        #expect(webp["message"] as? String == "submit: content_type: the photo is declared image/webp, but its content is an ELF executable (it starts 7F 45 4C 46 …)",
                "\(webp)")
        let page = Data("<!doctype html><html><body><script>alert(1)</script></body></html>".utf8)
        let html = try #require(LineClient.object(try await Self.send(daemon, page, name: "Page", type: "image/jpeg")))
        #expect((html["message"] as? String)?.contains("declared image/jpeg, but its content is HTML") == true, "\(html)")
        let octets = try #require(LineClient.object(try await Self.send(daemon, try Self.photo("wombat.jpg"), name: "Odd", type: "application/octet-stream")))
        #expect(octets["code"] as? String == "bad_field" && (octets["message"] as? String)?.contains("not application/octet-stream") == true, "\(octets)")
        #expect(try await Self.outbox(daemon).isEmpty, "nothing refused was queued")
        #expect(Self.photoFiles(daemon).isEmpty, "and nothing of it was kept")

        for (file, type) in [("wombat.jpg", "image/jpeg"), ("wombat.png", "image/png"), ("wombat.webp", "image/webp"),
                             ("wombat.heic", "image/heic"), ("wombat.avif", "image/avif")] {
            let reply = try await Self.send(daemon, try Self.photo(file), name: file, type: type)
            #expect(reply.contains(#""class":"SUBMIT""#), "\(file): \(reply)")
        }
        #expect(try await Self.outbox(daemon).count == 5)
        #expect(Self.photoFiles(daemon).count == 5)
        await daemon.stop()
    }

    // MARK: - Kept in a file, not in memory or the database

    @Test("a photo waits in a private file, not as base64 in the database; hotcold-sync is given the same body; delivered or refused, the file goes")
    func keptInAFile() async throws {
        let daemon = try InProcessDaemon()
        let photo = try Self.bigJPEG(3 << 20)
        let before = Self.databaseBytes(daemon)
        let reply = try await Self.send(daemon, photo, name: "Big Wombat")
        #expect(reply.contains(#""class":"SUBMIT""#), "\(reply)")
        // The database grew by a row, not by the photo's 4 MiB of base64 (and its WAL copy).
        let grown = Self.databaseBytes(daemon) - before
        #expect(grown < 256 << 10, "the database grew by \(grown) bytes for a photo of \(photo.count)")
        // The photo is one file of the daemon's, private, under a name of its own, the same bytes.
        let files = Self.photoFiles(daemon)
        #expect(files.count == 1 && files.first.map(PhotoStore.isName) == true, "\(files)")
        let file = daemon.dir.path("state/photos/" + (files.first ?? "-"))
        var st = stat()
        #expect(lstat(file, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o600 && st.st_uid == geteuid())
        #expect(lstat(daemon.dir.path("state/photos"), &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == photo)
        // Its name never goes on the wire: not in the outbox listing, not in what sync reads.
        let listing = try await daemon.ask(.outbox)
        #expect(!listing.contains(files.first ?? "-") && listing.contains("(\(photo.count) bytes)"), "\(listing.prefix(600))")

        // hotcold-sync reads the body in slices: the photo's base64 where it belongs.
        let (id, body, inline) = try await Self.body(daemon)
        #expect(!inline && !body.contains(Data((files.first ?? "-").utf8)))
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let sent = try #require(json["photo"] as? [String: Any])
        #expect(sent["data_base64"] as? String == photo.base64EncodedString())
        #expect(sent["filename"] as? String == "Big Wombat.jpg" && sent["content_type"] as? String == "image/jpeg")
        #expect(json["name"] as? String == "Big Wombat" && json["submitted_by"] as? String == "Alice")

        // Delivered: the file goes with the commit.
        _ = try await daemon.ask(.sync(SyncRequest(.delivered(id: id, status: 201, response: Data(#"{"id":"s1"}"#.utf8), catalogue: nil, at: nil))))
        #expect(Self.photoFiles(daemon).isEmpty)
        // Refused for good: the same.
        #expect(try await Self.send(daemon, try Self.bigJPEG(100_000), name: "Refused").contains("SUBMIT"))
        let refused = try await Self.body(daemon)
        #expect(Self.photoFiles(daemon).count == 1)
        _ = try await daemon.ask(.sync(SyncRequest(.failed(id: refused.id, status: 422, message: "no", response: nil, at: nil))))
        #expect(Self.photoFiles(daemon).isEmpty)
        await daemon.stop()
    }

    @Test("at start, a photo file no waiting item names is removed; the waiting ones stay and go out whole")
    func orphansGoAtStart() async throws {
        let dir = try TemporaryDirectory("photo-restart")
        let first = try InProcessDaemon(directory: dir)
        let photo = try Self.bigJPEG(500_000, seed: 11)
        #expect(try await Self.send(first, photo, name: "Kept").contains("SUBMIT"))
        await first.stop(clean: true, keep: true)
        let kept = try #require(Self.photoFilesIn(dir).first)
        // A crash between the file and the commit leaves a photo nothing names; and someone's file.
        let orphan = "photo-" + String(repeating: "ab", count: 16)
        try Data("left behind".utf8).write(to: URL(fileURLWithPath: dir.path("state/photos/" + orphan)))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir.path("state/photos/notes.txt")))
        let second = try InProcessDaemon(directory: dir)
        #expect(Self.photoFilesIn(dir) == [kept, "notes.txt"].sorted(), "only the daemon's own unnamed photo went")
        let (_, body, _) = try await Self.body(second)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect((json["photo"] as? [String: Any])?["data_base64"] as? String == photo.base64EncodedString())
        await second.stop()
    }

    static func photoFilesIn(_ dir: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path("state/photos"))) ?? []).sorted()
    }

    // MARK: - Idempotent submission

    @Test("a submit sent again with its key after a lost reply (even after a restart) is the same submission: one outbox item")
    func sameKeySameSubmission() async throws {
        let dir = try TemporaryDirectory("photo-key")
        let daemon = try InProcessDaemon(directory: dir)
        let key = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
        let photo = try Self.bigJPEG(200_000, seed: 3)
        // The first try: sent, and the connection dropped before its reply is read.
        let path = daemon.configuration.socket.path
        try await InProcessDaemon.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            let id = try c.upload(photo, purpose: .photo)
            try c.send(Self.submit("Big Key", key: key, upload: id))
            // Gone without reading; the daemon goes on with what it read.
        }
        // The item appears (the daemon stored it though nobody heard the reply).
        var items: [[String: Any]] = []
        for _ in 0..<200 where items.isEmpty {
            items = try await Self.outbox(daemon)
            if items.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(items.count == 1)
        // The phone tries again, the same key, the photo sent again: the first submission.
        let again = try #require(LineClient.object(try await Self.send(daemon, photo, name: "Big Key", key: key)))
        let first = try #require(again["result"] as? [String: Any], "\(again)")
        #expect(try await Self.outbox(daemon).count == 1)
        #expect(Self.photoFiles(daemon).count == 1, "the repeat's photo was not kept")
        // After a restart, the key is still known.
        await daemon.stop(clean: true, keep: true)
        let restarted = try InProcessDaemon(directory: dir)
        let third = try #require(LineClient.object(try await Self.send(restarted, photo, name: "Big Key", key: key)))
        #expect((third["result"] as? [String: Any])?["id"] as? Int == first["id"] as? Int, "\(third)")
        #expect(try await Self.outbox(restarted).count == 1)
        // A new key is a new submission.
        #expect(try await Self.send(restarted, photo, name: "Big Key", key: "f0e1d2c3b4a5968778695a4b3c2d1e0f").contains("SUBMIT"))
        #expect(try await Self.outbox(restarted).count == 2)
        await restarted.stop()
    }

    @Test("a key is per user: another user's same key is another submission")
    func keysArePerUser() async throws {
        try #require(UnixAccounts.available, "needs root and useradd")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let writers = try accounts.group("hcpw")
        let alice = try accounts.user("hcpa", groups: [writers])
        let bob = try accounts.user("hcpb", groups: [writers])
        let daemon = try InProcessDaemon { c in
            c.socket.allowedGroups = [writers]
            c.socket.proxies = []
        }
        let key = "shared-key-0123456789"
        let photo = try Self.photo("wombat.png")
        let a = try #require(LineClient.object(try await Self.send(daemon, photo, name: "A", type: "image/png", key: key, actFor: alice.uid)))
        let b = try #require(LineClient.object(try await Self.send(daemon, photo, name: "B", type: "image/png", key: key, actFor: bob.uid)))
        #expect((a["result"] as? [String: Any])?["user"] as? String == alice.name)
        #expect((b["result"] as? [String: Any])?["user"] as? String == bob.name && (b["result"] as? [String: Any])?["name"] as? String == "B")
        #expect(try await Self.outbox(daemon).count == 2)
        await daemon.stop()
    }
}
