import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The daemon bounded against legal but greedy clients and a world that changes under it: the
/// built hotcoldd, real Unix users (useradd, setpriv), a real SQLite file written by another
/// process, and the file deleted while the daemon runs.
@Suite(.offCooperativePool, .serialized, .enabled(if: UnixAccounts.available))
struct DaemonBoundsTests {
    static let banana = "halans:d0577fb8cf"

    /// A daemon whose socket any user may open (mode 0666), `writers` allowed to write; no gpsd.
    func daemon(writers: [String], extra: String = "") throws -> (DaemonProcess, TemporaryDirectory) {
        let config = try TemporaryDirectory("hotcold-bounds")
        try """
            [socket]
            mode = "0666"
            allowed_users = [\(writers.map { "\"\($0)\"" }.joined(separator: ", "))]
            allowed_groups = []
            \(extra)
            """.write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
        // scripts/bench-bounds points this at another build (the one before a change) to compare.
        let other = ProcessInfo.processInfo.environment["HOTCOLDD_UNDER_TEST"].map { URL(fileURLWithPath: $0) }
        let d = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:1",
                                              "--target", "-30.3,153.1,Start"], executable: other)
        return (d, config)
    }

    /// Sends lines as `u` (request, reply, …) and returns the replies with each one's time.
    func ask(_ d: DaemonProcess, _ u: UnixUser, _ lines: [String]) throws -> [([String: Any], Double)] {
        let c = try ForeignClient(uid: u.uid, gid: u.gid, arguments: ["ask", d.socketPath])
        defer { c.finish() }
        var out: [([String: Any], Double)] = []
        for l in lines {
            let t = Date()
            c.write(l)
            let reply = try #require(c.readObject(timeout: 120), "no reply to \(l)")
            out.append((reply, Date().timeIntervalSince(t)))
        }
        return out
    }

    static func rssBytes(pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// A Big Things catalogue of `count` places.
    static func catalogue(_ count: Int) -> Data {
        let things = (0..<count).map { i in
            #"{"id": "big:\#(i)", "name": "Big Thing number \#(i) of the bounds test", "town": "Town \#(i % 97)", "state": "NSW", "lat": -\#(28 + Double(i % 1000) / 1000), "lon": \#(150 + Double(i / 1000) / 100), "description": "A large object that a reader exports again and again."}"#
        }
        return Data(#"{"updated": "2024-01-01T00:00:00Z", "things": [\#(things.joined(separator: ",\n"))]}"#.utf8)
    }

    /// 16 connections of a read-only user each ask for an export of a large catalogue and never
    /// download it, while another user writes: the writer is answered at once (its work is not
    /// queued behind the reader's), and the daemon's memory does not grow by the exports (they
    /// sit in staged files, not in memory).
    @Test func aReadersExportsNeitherStarveAWriterNorFillMemory() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let reader = try accounts.user("hcbr"), writer = try accounts.user("hcbw")
        let (d, config) = try daemon(writers: [writer.name]); defer { d.stop(); config.remove() }
        // Another program (this test) fills the daemon's database while it runs.
        let places = 12_000
        try Store.open(path: d.dbPath).importData(Self.catalogue(places), file: "big.json", user: "root")
        let baseline = Self.rssBytes(pid: d.pid)
        let exports = try ForeignClient(uid: reader.uid, gid: reader.gid, arguments: ["exports", d.socketPath, "16", "gpx"])
        defer { exports.finish() }
        usleep(500_000)
        // The writer's changes while the reader's 16 exports are queued and running.
        let writes = try ask(d, writer, (0..<3).map { #"{"cmd":"store","op":"\#($0 % 2 == 0 ? "fav" : "unfav")","id":"\#(Self.banana)"}"# })
        #expect(writes.allSatisfy { $0.0["class"] as? String == "STORE" }, "\(writes.map(\.0))")
        let latencies = writes.map(\.1)
        let out = try #require(exports.readObject(timeout: 600), "the reader's exports never finished")
        let sizes = out["sizes"] as? [Int] ?? []
        #expect(out["exported"] as? Int == 16, "\(out["errors"] ?? "")")
        let size = sizes.max() ?? 0
        #expect(size > 3 << 20)
        let held = Self.rssBytes(pid: d.pid)
        print("FIGURES 16 idle exports of \(places) places (\(size / 1024) KiB each): daemon RSS \(baseline / 1_048_576) MiB before, \(held / 1_048_576) MiB with them held (+\((held - baseline) / 1_048_576) MiB); writer round trips \(latencies.map { String(format: "%.3f", $0) }.joined(separator: ", ")) s")
        // Generous bounds, far from what holding them costs (16 x the export) or a serial queue
        // (every write behind 16 exports).
        #expect(held - baseline < 4 * size, "RSS grew \((held - baseline) / 1_048_576) MiB for 16 exports of \(size / 1_048_576) MiB")
        #expect(latencies.max()! < 10, "a writer waited \(latencies.max()!) s behind a reader's exports")
    }

    /// A database locked by another program: `hotcold fav` through the daemon exits 75 (busy,
    /// try later), as the README promises, not 70.
    @Test func aLockedDatabaseIsBusyNotAnInternalError() throws {
        try #require(SQLiteLockHolder.available, "sqlite3 is not installed (scripts/setup installs it)")
        let (d, config) = try daemon(writers: []); defer { d.stop(); config.remove() }
        let lock = try SQLiteLockHolder(database: d.dbPath)
        defer { lock.release() }
        let r = try Subprocess.run(Binaries.url("hotcold"), ["fav", Self.banana, "--socket", d.socketPath],
                                   environment: ["HOTCOLD_DB": "/nonexistent/should-not-be-used.sqlite"])
        #expect(r.status == 75, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("locked"), "\(r.stderr)")
    }

    /// The database file deleted while the daemon runs: noticed (the path no longer names the
    /// open file), said in `status` and the journal, and changes refused instead of landing in
    /// a file that vanishes at the next start.
    @Test func aDeletedDatabaseIsNoticedAndChangesAreRefused() throws {
        let (d, config) = try daemon(writers: []); defer { d.stop(); config.remove() }
        let c = try d.connect()
        _ = try c.read(class: "VERSION")
        try c.send(#"{"cmd":"store","op":"fav","id":"\#(Self.banana)"}"#)
        #expect(try c.read(class: "STORE", timeout: 30)["result"] as? Bool == true)
        for suffix in ["", "-wal", "-shm"] { unlink(d.dbPath + suffix) }
        try c.send(#"{"cmd":"store","op":"unfav","id":"\#(Self.banana)"}"#)
        let refused = try c.read(class: "ERROR", timeout: 30)
        #expect(refused["code"] as? String == "internal")
        #expect((refused["message"] as? String ?? "").contains("deleted"), "\(refused)")
        // hotcold-sync's record of a delivery too: it would be lost, and the item sent again.
        try c.send(#"{"cmd":"sync","op":"delivered","id":1,"status":200}"#)
        let syncRefused = try c.read(class: "ERROR", timeout: 30)
        #expect((syncRefused["message"] as? String ?? "").contains("deleted"), "\(syncRefused)")
        try c.send(#"{"cmd":"status"}"#)
        let status = try c.read(class: "STATUS", timeout: 30)
        #expect((status["database_error"] as? String ?? "").contains("deleted"), "\(status["database_error"] ?? "none")")
        #expect(eventually { d.stderr.contains("was deleted while the daemon has it open") }, "journal: \(d.stderr.suffix(2000))")
    }

    /// Personal records are their owner's: another reader sees none of alice's observations or
    /// outbox items; root (the daemon's administrator) sees them all; the catalogue is shared.
    @Test func personalRecordsAreVisibleToTheirOwnerOnly() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcpa"), bob = try accounts.user("hcpb")
        let (d, config) = try daemon(writers: [alice.name, bob.name]); defer { d.stop(); config.remove() }
        let mine = try ask(d, alice, [
            #"{"cmd":"store","op":"observe","classification":"bird","title":"Secret nest","date":"2024-05-01T10:00:00Z","lat":-30.1,"lon":153.1}"#,
            #"{"cmd":"submit","name":"Big Secret","lat":-35.28,"lon":149.13,"seen_at":"2024-05-01T10:00:00Z"}"#,
            #"{"cmd":"observations"}"#, #"{"cmd":"outbox"}"#,
        ]).map(\.0)
        #expect(mine.map { $0["class"] as? String } == ["STORE", "SUBMIT", "OBSERVATIONS", "OUTBOX"], "\(mine)")
        #expect((mine[2]["result"] as? [Any])?.count == 1)
        #expect((mine[3]["result"] as? [Any])?.count == 1)
        let theirs = try ask(d, bob, [#"{"cmd":"observations"}"#, #"{"cmd":"outbox"}"#,
                                      #"{"cmd":"place","id":"\#(Self.banana)"}"#]).map(\.0)
        #expect((theirs[0]["result"] as? [Any])?.count == 0, "\(theirs[0])")
        #expect((theirs[1]["result"] as? [Any])?.count == 0, "\(theirs[1])")
        #expect(theirs[2]["class"] as? String == "PLACE")
        let root = try d.connect()
        _ = try root.read(class: "VERSION")
        try root.send(#"{"cmd":"observations"}"#)
        #expect((try root.read(class: "OBSERVATIONS", timeout: 30)["result"] as? [Any])?.count == 1)
        try root.send(#"{"cmd":"outbox"}"#)
        #expect((try root.read(class: "OUTBOX", timeout: 30)["result"] as? [Any])?.count == 1)

        // Only alice may correct or delete her observation: bob, and root, are refused, and
        // it stays as it was; alice's correction keeps when and where, and her delete is final.
        let id = try #require((mine[0]["result"] as? [String: Any])?["id"] as? String)
        let amend = #"{"cmd":"store","op":"amend","id":"\#(id)","title":"Not a nest","description":""}"#
        let unobserve = #"{"cmd":"store","op":"unobserve","id":"\#(id)"}"#
        for refused in try ask(d, bob, [amend, unobserve]).map(\.0) {
            #expect(refused["class"] as? String == "ERROR" && refused["code"] as? String == "not_allowed", "\(refused)")
        }
        try root.send(amend)
        #expect(try root.read(class: "ERROR", timeout: 30)["code"] as? String == "not_allowed")
        let hers = try ask(d, alice, [#"{"cmd":"store","op":"amend","id":"\#(id)","classification":"mammal","title":"Possum"}"#,
                                      unobserve, unobserve, #"{"cmd":"observations"}"#]).map(\.0)
        let amended = hers[0]["result"] as? [String: Any]
        #expect(amended?["title"] as? String == "Possum" && amended?["classification"] as? String == "mammal", "\(hers[0])")
        #expect(amended?["observed_at"] as? String == "2024-05-01T10:00:00.000Z" && amended?["latitude"] as? Double == -30.1)
        #expect((hers[1]["result"] as? [String: Any])?["title"] as? String == "Possum", "\(hers[1])")
        #expect(hers[2]["class"] as? String == "ERROR" && hers[2]["code"] as? String == "not_found", "\(hers[2])")
        #expect((hers[3]["result"] as? [Any])?.count == 0, "\(hers[3])")
    }

    /// A hunt for 120 places: STATUS lists the nearest 50 and counts the other 70, and `targets`
    /// pages through all 120, nearest first — a STATUS line stays small however many are tracked.
    @Test(.enabled(if: GPSDHarness.gpsdAvailable)) func statusListsTheNearestTargetsAndPagesTheRest() throws {
        let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
        let rig = try HostileClientTests.Rig(allowed: [], extra: "", track: track, accounts: UnixAccounts())
        defer { rig.stop() }
        let specs = (0..<120).map { i in "\(-30.30 - Double(i) * 0.001),\(153.10 + Double(i % 7) * 0.001),Spot \(i)" }
        try rig.root.send(Request.hunt(HuntRequest(targets: specs)).line)
        #expect(try rig.root.read(class: "TRACKING", timeout: 30)["targets"] as? Int == 120)
        var status: [String: Any] = [:]
        var statusBytes = 0
        let listed = eventually {
            guard (try? rig.root.send(#"{"cmd":"status"}"#)) != nil,
                  let line = try? rig.root.readLine(timeout: 10), let o = LineClient.object(line),
                  o["class"] as? String == "STATUS" else { return false }
            status = o
            statusBytes = line.utf8.count
            return !((o["targets"] as? [Any]) ?? []).isEmpty
        }
        try #require(listed, "no targets in STATUS: \(status)")
        let shown = status["targets"] as? [[String: Any]] ?? []
        #expect(shown.count == 50)
        #expect(status["targets_more"] as? Int == 70)
        let distances = shown.compactMap { $0["distance_m"] as? Double }
        #expect(distances == distances.sorted())
        #expect(statusBytes < 64 << 10)
        var all: [[String: Any]] = []
        for offset in stride(from: 0, to: 130, by: 40) {
            try rig.root.send(#"{"cmd":"targets","offset":\#(offset),"limit":40}"#)
            let page = try rig.root.read(class: "TARGETS", timeout: 30)
            #expect(page["total"] as? Int == 120 && page["offset"] as? Int == offset)
            let rows = page["targets"] as? [[String: Any]] ?? []
            let d = rows.compactMap { $0["distance_m"] as? Double }
            #expect(d == d.sorted())
            all += rows
        }
        #expect(all.count == 120)
        let names = Set(all.compactMap { ($0["target"] as? [String: Any])?["name"] as? String })
        #expect(names.count == 120, "pages overlapped: \(names.count) distinct of 120")
    }

    /// The daemon's state directory on a real 24 MiB tmpfs with 8 MiB kept free: an upload that
    /// would eat into the reserve is refused with a clear error before a byte is staged, and
    /// the database still takes changes afterwards — the disk is never filled by uploads.
    @Test func anUploadIsRefusedBeforeTheDatabasesDiskIsFull() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let writer = try accounts.user("hcbu")
        // The database (and the uploads staged beside it) on a small filesystem of its own; the
        // last --db wins over the one DaemonProcess adds.
        let state = try TemporaryDirectory("hotcold-state")
        defer { umount(state.url.path); state.remove() }
        let m = try Subprocess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=24m,mode=0750", "tmpfs", state.url.path])
        try #require(m.status == 0, "mount: \(m.stderr)")
        let config2 = try TemporaryDirectory("hotcold-bounds")
        defer { config2.remove() }
        try """
            [socket]
            mode = "0666"
            allowed_users = ["\(writer.name)"]
            allowed_groups = []
            [quotas]
            free_space_reserve_mib = 8
            """.write(toFile: config2.path("hc.toml"), atomically: true, encoding: .utf8)
        let other = ProcessInfo.processInfo.environment["HOTCOLDD_UNDER_TEST"].map { URL(fileURLWithPath: $0) }
        let daemon = try DaemonProcess(arguments: ["--config", config2.path("hc.toml"), "--gpsd", "127.0.0.1:1",
                                                   "--db", state.path("hc.sqlite"), "--target", "-30.3,153.1,Start"], executable: other)
        defer { daemon.stop() }
        let free = try #require(Self.freeMiB(state.url.path))
        // Room for the upload, but not for the upload and the reserve.
        let size = (free - 4) << 20
        let replies = try ask(daemon, writer, [#"{"cmd":"upload","purpose":"import","size":\#(size)}"#]).map(\.0)
        #expect(replies[0]["class"] as? String == "ERROR")
        #expect(replies[0]["code"] as? String == "quota")
        #expect((replies[0]["message"] as? String ?? "").contains("free_space_reserve_mib"), "\(replies[0])")
        // A small one is fine, and the database still writes.
        let ok = try ask(daemon, writer, [#"{"cmd":"upload","purpose":"import","size":1000}"#,
                                         #"{"cmd":"store","op":"fav","id":"\#(Self.banana)"}"#]).map(\.0)
        #expect(ok.map { $0["class"] as? String } == ["UPLOAD", "STORE"], "\(ok)")
    }

    static func freeMiB(_ path: String) -> Int? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return (Int(s.f_bavail) * Int(s.f_frsize)) >> 20
    }

    /// An import whose 20,000 rows are all invalid: the IMPORT reply lists the first 100 and
    /// counts them all, instead of a 2 MB line that overflows the client's 1 MiB queue (and
    /// gets the client dropped after the import was done).
    @Test func anImportReplySummarisesItsIssues() throws {
        let (d, config) = try daemon(writers: []); defer { d.stop(); config.remove() }
        let bad = (0..<20_000).map { i in
            #"{"id": "bad:\#(i)", "name": "Nowhere \#(i)", "town": "Town", "state": "NSW", "lat": 200, "lon": 153.1}"#
        }
        let file = Data(#"{"updated": "2024-01-01T00:00:00Z", "things": [{"id": "ok:1", "name": "Big Fine", "town": "Town", "state": "NSW", "lat": -30.1, "lon": 153.1},\#n\#(bad.joined(separator: ",\n"))]}"#.utf8)
        let c = try d.connect()
        _ = try c.read(class: "VERSION")
        let id = try c.upload(file, purpose: .import, timeout: 60)
        try c.send(Request.import(ImportRequest(upload: id, name: "bad.json")).line)
        let line = try #require(try c.readLine(timeout: 120))
        let reply = try #require(LineClient.object(line))
        #expect(reply["class"] as? String == "IMPORT", "\(line.prefix(300))")
        let result = reply["result"] as? [String: Any] ?? [:]
        #expect(result["inserted"] as? Int == 1)
        #expect((result["skipped"] as? [Any])?.count == 100)
        #expect(result["skipped_total"] as? Int == 20_000)
        #expect(line.utf8.count < 64 << 10, "\(line.utf8.count) bytes")
        // Every row is in the details, a download away.
        let details = try #require(result["details"] as? String)
        try c.send(Request.download(DownloadRequest(id: details, offset: 0)).line)
        let first = try c.read(class: "CHUNK", timeout: 30)
        #expect(first["eof"] as? Bool == false)
        var full = Data()
        var offset = 0
        while true {
            try c.send(Request.download(DownloadRequest(id: details, offset: offset)).line)
            let chunk = try c.read(class: "CHUNK", timeout: 30)
            let bytes = Data(base64Encoded: chunk["data"] as? String ?? "") ?? Data()
            full.append(bytes)
            offset += bytes.count
            if chunk["eof"] as? Bool == true { break }
        }
        let whole = try #require(try JSONSerialization.jsonObject(with: full) as? [String: Any])
        #expect((whole["skipped"] as? [Any])?.count == 20_000)
    }

    /// `sync catalogue` of a list that drops the daemon's 476 bundled Big Things: the reply
    /// lists 100 withdrawn ids with `withdrawn_total`, and `details` downloads the whole report.
    @Test func aCatalogueCommitReplySummarises() throws {
        let (d, config) = try daemon(writers: []); defer { d.stop(); config.remove() }
        let c = try d.connect()
        _ = try c.read(class: "VERSION")
        let file = Data(#"{"updated": "2024-01-01T00:00:00Z", "things": [{"id": "api:one", "name": "Big Only", "town": "Town", "state": "NSW", "lat": -30.1, "lon": 153.1}]}"#.utf8)
        func sync(_ line: String) throws -> [String: Any] {
            try c.send(line)
            let reply = try c.read(class: "SYNC", timeout: 60)
            return reply["result"] as? [String: Any] ?? [:]
        }
        // The catalogue goes up as every file does (upload, chunk), then `sync catalogue` applies it.
        try c.send(#"{"cmd":"upload","purpose":"catalogue","size":\#(file.count)}"#)
        let upload = try #require(try c.read(class: "UPLOAD", timeout: 30)["id"] as? String)
        try c.send(#"{"cmd":"chunk","upload":"\#(upload)","offset":0,"data":"\#(file.base64EncodedString())"}"#)
        _ = try c.read(class: "UPLOAD", timeout: 30)
        let report = try sync(#"{"cmd":"sync","op":"catalogue","upload":"\#(upload)","source":"https://api.invalid/bigthings"}"#)
        let total = try #require(report["withdrawn_total"] as? Int, "\(report.keys.sorted())")
        #expect(total > 400)
        #expect((report["withdrawn"] as? [Any])?.count == 100)
        let details = try #require(report["details"] as? String)
        var full = Data()
        while true {
            try c.send(Request.download(DownloadRequest(id: details, offset: full.count)).line)
            let chunk = try c.read(class: "CHUNK", timeout: 30)
            full.append(Data(base64Encoded: chunk["data"] as? String ?? "") ?? Data())
            if chunk["eof"] as? Bool == true { break }
        }
        let whole = try #require(try JSONSerialization.jsonObject(with: full) as? [String: Any])
        #expect((whole["withdrawn"] as? [Any])?.count == total)
    }
}
