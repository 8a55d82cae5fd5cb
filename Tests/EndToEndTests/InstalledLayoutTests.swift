import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The layout `make install` and the unit give, built for real: the daemon runs as its own Unix
/// user with its database in a 0700 state directory, the socket is 0660 for a group, an ordinary
/// member of that group uses every `hotcold` command through the socket, and a user outside the
/// group is refused at connect.
@Suite(.offCooperativePool, .serialized, .enabled(if: UnixAccounts.available, "needs root to create Unix users"))
struct InstalledLayoutTests {
    let banana = "halans:d0577fb8cf"

    final class Layout {
        let accounts = UnixAccounts()
        let root: TemporaryDirectory
        let daemonUser: String, member: String, reader: String, outsider: String
        let group: String, writers: String
        let stateDir: String, runDir: String, logDir: String, filesDir: String
        var socket: String { runDir + "/hotcold.sock" }
        var database: String { stateDir + "/hotcold.sqlite" }
        let daemon: DaemonProcess

        init() throws {
            // The socket's group (who may connect) and the writers' group (allowed_groups).
            group = try accounts.group("hct")
            writers = try accounts.group("hcw")
            daemonUser = try accounts.user("hcd", groups: [group]).name
            member = try accounts.user("hca", groups: [group, writers]).name
            reader = try accounts.user("hcr", groups: [group]).name
            outsider = try accounts.user("hcm").name
            root = try TemporaryDirectory("hotcold-installed")
            // mkdtemp makes 0700; the users must be able to traverse to the run and files dirs.
            chmod(root.url.path, 0o755)
            stateDir = root.path("state")
            runDir = root.path("run")
            logDir = root.path("log")
            filesDir = root.path("files")
            for (dir, mode, owner) in [(stateDir, 0o700, daemonUser), (runDir, 0o755, daemonUser),
                                       (logDir, 0o750, daemonUser), (filesDir, 0o755, "root")] {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
                chmod(dir, mode_t(mode))
                if owner != "root" {
                    let r = try Subprocess.run(URL(fileURLWithPath: "/bin/chown"), ["\(owner):\(owner)", dir])
                    guard r.status == 0 else { throw UnixAccounts.Failure(description: r.stderr) }
                }
            }
            let config = filesDir + "/hotcoldd.toml"
            try "[socket]\nallowed_groups = [\"\(writers)\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o644)
            // As under systemd: the daemon's user, with the socket's group as its group.
            daemon = try DaemonProcess(
                arguments: UnixAccounts.asUser(daemonUser, primaryGroup: group) + [
                    Binaries.url("hotcoldd").path, "--config", config, "--gpsd", "127.0.0.1:1",
                    "--socket", runDir + "/hotcold.sock", "--log", logDir + "/events.jsonl",
                    "--db", stateDir + "/hotcold.sqlite", "--target=-30.3,153.1,Start"],
                waitForSocket: false, executable: URL(fileURLWithPath: "/usr/bin/setpriv"), extraFiles: false)
            try daemon.waitFor(runDir + "/hotcold.sock")
        }

        /// Runs `hotcold ARGS` as `user` (with that user's groups), with no way to the database
        /// but the socket: no HOME, no XDG dirs, HOTCOLD_DB pointing nowhere.
        func hotcold(_ user: String, _ args: [String], input: Data? = nil) throws -> ProcessResult {
            try Subprocess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                UnixAccounts.asUser(user) + ["/usr/bin/env", "HOME=/nonexistent",
                                             "HOTCOLD_DB=/nonexistent/hotcold.sqlite", "HOTCOLD_SOCKET=\(socket)",
                                             Binaries.url("hotcold").path] + args,
                input: input)
        }

        deinit {
            daemon.stop()
            root.remove()
            accounts.remove()
        }
    }

    @Test func theLayoutIsWhatTheUnitGives() throws {
        let l = try Layout()
        var st = stat()
        #expect(stat(l.stateDir, &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(stat(l.database, &st) == 0 && st.st_uid == getpwnam(l.daemonUser)?.pointee.pw_uid)
        #expect(stat(l.socket, &st) == 0 && st.st_mode & 0o777 == 0o660)
        #expect(st.st_gid == l.accounts.gid(ofGroup: l.group))
        // The member cannot read the database file itself: every command below must use the socket.
        let peek = try l.hotcold(l.member, ["things", "--db", l.database])
        #expect(peek.status != 0, "a group member read the daemon's database directly: \(peek.stdout)")
    }

    @Test func aGroupMemberUsesEveryCommandThroughTheSocket() throws {
        let l = try Layout()
        let u = l.member
        func ok(_ args: [String], input: Data? = nil, _ line: Int = #line) throws -> String {
            let r = try l.hotcold(u, args, input: input)
            #expect(r.status == 0, "hotcold \(args.joined(separator: " ")) (line \(line)): \(r.stderr)")
            return r.stdout
        }
        // Reads.
        #expect(try ok(["things", "--search", "banana"]).contains(banana))
        #expect(try ok(["things", "--state", "NSW", "--sort", "distance", "--at=-30.3,153.1", "--json"]).contains(banana))
        #expect(try ok(["show", banana]).contains("Banana"))
        #expect(try ok(["near", "--at=-30.2748,153.1338", "--limit", "3"]).contains("Banana"))
        #expect(try ok(["status"]).contains("hunt"))
        _ = try ok(["about"])

        // Writes, recorded for this user.
        _ = try ok(["seen", banana])
        _ = try ok(["fav", banana])
        _ = try ok(["rate", banana, "4"])
        _ = try ok(["note", banana, "bring a hat"])
        #expect(try ok(["note", banana]).contains("bring a hat"))
        let added = try ok(["add", "Camp", "--at=-30.25,153.10"])
        // "Added Camp as ID."
        let campID = try #require(added.split(separator: " ").last.map { String($0.dropLast(2)) }, "\(added)")
        _ = try ok(["rename", campID, "Base camp"])
        let spare = try ok(["add", "Spare", "--at=-30.26,153.10"])
        let spareID = try #require(spare.split(separator: " ").last.map { String($0.dropLast(2)) }, "\(spare)")
        #expect(try ok(["delete", spareID]).contains("Deleted \(spareID) (Spare)"))
        _ = try ok(["observe", "bird", "Kookaburra", "on the fence", "--at=-30.27,153.13"])
        _ = try ok(["unfav", banana])
        let visits = try ok(["visits", "--json"])
        #expect(visits.contains(banana))
        #expect(try ok(["observations", "--json"]).contains("Kookaburra"))
        #expect(try ok(["show", banana]).contains("bring a hat"))

        // Imports and exports: files the daemon cannot read, carried over the socket.
        let gpx = l.filesDir + "/caches.gpx"
        try FileManager.default.copyItem(atPath: TestData.url("geocaches/cachebox3-GC2T9RW.gpx").path, toPath: gpx)
        chmod(gpx, 0o644)
        let imported = try ok(["import", gpx])
        #expect(imported.lowercased().contains("import"), "\(imported)")
        let exported = try ok(["export", "--format", "gpx"])
        #expect(exported.contains("<gpx") && exported.contains("Banana"))
        let visitsOut = try ok(["export", "--format", "geojson", "--visits"])
        #expect(visitsOut.contains("FeatureCollection") && visitsOut.contains(banana))

        // A submission with a photo, queued in the outbox.
        let photo = l.filesDir + "/wombat.jpg"
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: UInt8(0x42), count: 300_000) + [0xFF, 0xD9])
        _ = FileManager.default.createFile(atPath: photo, contents: jpeg)
        chmod(photo, 0o644)
        _ = try ok(["submit", "Big Wombat", "--at=-35.28,149.13", "--by", "Alice", "--photo", photo])
        let outbox = try ok(["outbox", "--json"])
        #expect(outbox.contains("submission") && outbox.contains("rating"), "\(outbox)")

        // Tracking.
        _ = try ok(["hunt", banana])
        _ = try ok(["roam", "20km", "--kind", "bigthing"])
        _ = try ok(["unseen", banana])
        #expect(l.daemon.process.isRunning)

        // The changes are the member's own, in the daemon's database.
        let who = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                     [l.database, "SELECT DISTINCT user FROM rating"])
        #expect(who.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == u)
    }

    @Test func theDatabasePathIsShownOnlyToWriters() throws {
        let l = try Layout()
        // The reader may connect (socket group) but not write (not in allowed_groups).
        let reader = try l.hotcold(l.reader, ["status", "--json"])
        #expect(reader.status == 0, "\(reader.stderr)")
        #expect(reader.stdout.contains("\"STATUS\"") && !reader.stdout.contains(l.database), "\(reader.stdout)")
        let refused = try l.hotcold(l.reader, ["rate", banana, "3"])
        #expect(refused.status != 0 && refused.stderr.contains("not allowed"), "\(refused.stderr)")
        let writer = try l.hotcold(l.member, ["status", "--json"])
        #expect(writer.stdout.contains(l.database), "\(writer.stdout) \(writer.stderr)")
    }

    @Test func aUserOutsideTheGroupIsRefusedAtConnect() throws {
        let l = try Layout()
        let r = try l.hotcold(l.outsider, ["things"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("Permission denied") || r.stderr.contains("permission"), "\(r.stderr)")
        #expect(l.daemon.process.isRunning)
    }

}
