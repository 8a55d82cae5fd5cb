import Foundation
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real processes: `hotcoldd`, `hotcold-sync` and the reference server. The sync process
/// reaches the database only through the daemon's socket (`sync` command), learns of new
/// ratings from the QUEUED event, and delivers each exactly once, across kill -9.
@Suite(.offCooperativePool, .serialized) struct SyncServiceTests {
    /// A daemon with its own directory, and the sync process's command line.
    struct Rig {
        let daemon: DaemonProcess
        let server: ReferenceServer
        let config: String

        init(server: ReferenceServer, daemonArgs: [String] = []) throws {
            self.server = server
            daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(try FreePort.tcp())",
                                                   "--target", "-30.30,153.10,Somewhere"] + daemonArgs)
            config = daemon.dir.path("sync.toml")
            try "".write(toFile: config, atomically: true, encoding: .utf8)
        }

        func startSync(environment: [String: String] = [:]) throws -> SyncProcess {
            try SyncProcess(arguments: ["--config", config, "--socket", daemon.socketPath, "--api", server.url.absoluteString,
                                        "--allow-http-loopback", "--interval", "3600", "--timeout", "30"],
                            dir: daemon.dir, environment: environment)
        }

        /// One request on a fresh connection; the reply of `cls` (or the ERROR).
        func ask(_ line: String, _ cls: String) throws -> [String: Any] {
            let c = try daemon.connect()
            _ = try c.read(class: "VERSION")
            try c.send(line)
            while true {
                // Generous: the daemon's sync queue may be applying a large catalogue (debug build, shared cores).
                guard let l = try c.readLine(timeout: 60), let o = LineClient.object(l) else { throw TestFailure("closed") }
                if o["class"] as? String == cls || o["class"] as? String == "ERROR" { return o }
            }
        }

        func pending() throws -> Int {
            try (ask(#"{"cmd":"sync","op":"pending"}"#, "SYNC")["result"] as? [String: Any])?["count"] as? Int ?? -1
        }

        func waitFor(seconds: Double = 60, _ what: String, _ condition: () throws -> Bool) throws {
            let end = Date().addingTimeInterval(seconds)
            while try !condition() {
                guard Date() < end else { throw TestFailure("timed out waiting for \(what)") }
                usleep(50_000)
            }
        }

        func stop() { daemon.stop() }
    }

    /// The catalogue the server serves: its three things and 2,000 more with long
    /// descriptions, so that the upload to the daemon takes many pieces (> 300 KB).
    static func bigCatalogue(in dir: TemporaryDirectory) throws -> String {
        var things: [[String: Any]] = [
            ["id": "api:banana", "name": "Big Banana", "town": "Coffs Harbour", "state": "NSW", "lat": -30.2963, "lon": 153.1135,
             "rating": 4.0, "votes": 10],
            ["id": "api:merino", "name": "Big Merino", "town": "Goulburn", "state": "NSW", "lat": -34.7547, "lon": 149.6943],
        ]
        for i in 0..<2000 {
            things.append(["id": "api:t\(i)", "name": "Big Thing \(i)", "town": "Town \(i)", "state": "QLD",
                           "lat": -20 - Double(i % 100) * 0.01, "lon": 140 + Double(i / 100) * 0.01,
                           "description": String(repeating: "A very big thing. ", count: 8)])
        }
        let path = dir.path("catalogue.json")
        try JSONSerialization.data(withJSONObject: ["things": things]).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aRatingGivenThroughTheDaemonReachesTheServerWithinSecondsExactlyOnce() async throws {
        let files = try TemporaryDirectory("sync-service"); defer { files.remove() }
        let catalogue = try Self.bigCatalogue(in: files)
        #expect(try FileManager.default.attributesOfItem(atPath: catalogue)[.size] as? Int ?? 0 > 300_000)
        let server = try ReferenceServer(token: "s3cret", catalogue: catalogue); defer { server.stop() }
        let rig = try Rig(server: server); defer { rig.stop() }
        // The token as systemd's LoadCredential= hands it over.
        let creds = files.path("credentials")
        try FileManager.default.createDirectory(atPath: creds, withIntermediateDirectories: true)
        try "s3cret\n".write(toFile: creds + "/api-token", atomically: true, encoding: .utf8)

        let watcher = try rig.daemon.connect()
        try watcher.send(#"{"cmd":"watch","classes":["QUEUED"]}"#)
        _ = try watcher.read(class: "WATCH")
        let sync = try rig.startSync(environment: ["CREDENTIALS_DIRECTORY": creds]); defer { sync.stop() }

        // The catalogue goes into the daemon's database through the socket, in pieces.
        try rig.waitFor("the catalogue") {
            (try rig.ask(#"{"cmd":"sync","op":"etag"}"#, "SYNC")["result"] as? [String: Any])?["etag"] as? String != nil
        }
        let etag = (try rig.ask(#"{"cmd":"sync","op":"etag"}"#, "SYNC")["result"] as? [String: Any])?["etag"] as? String
        #expect(etag == (try await server.state()["etag"] as? String))

        let rated = try rig.ask(#"{"cmd":"store","op":"rate","id":"api:banana","stars":4}"#, "STORE")
        #expect(rated["class"] as? String == "STORE", "\(rated)")
        let event = try watcher.read(class: "QUEUED", timeout: 10)
        #expect(event["pending"] as? Int == 1)
        #expect((event["seq"] as? Int ?? 0) > 0, "QUEUED is numbered like every event: \(event)")
        let queuedAt = Date()
        // The sync interval is an hour: only the QUEUED event can bring it out this soon.
        #expect(try await server.wait(seconds: 15) { ($0["ratings_counted"] as? Int) == 1 }, "\(sync.stderr)")
        print("FIGURES rating queued in the daemon to counted by the server: \(Int(Date().timeIntervalSince(queuedAt) * 1000)) ms")
        try rig.waitFor("the delivery to be recorded") { try rig.pending() == 0 }
        let item = try rig.ask(#"{"cmd":"sync","op":"item","id":1}"#, "SYNC")["result"] as? [String: Any]
        #expect((item?["item"] as? [String: Any])?["state"] as? String == "delivered")
        // sync's errors carry their code as every command's do.
        let missing = try rig.ask(#"{"cmd":"sync","op":"payload","id":999999,"offset":0}"#, "SYNC")
        #expect(missing["class"] as? String == "ERROR" && missing["code"] as? String == "not_found"
                && missing["command"] as? String == "sync", "\(missing)")
        let invalid = try rig.ask(#"{"cmd":"sync","op":"frobnicate"}"#, "SYNC")
        #expect(invalid["code"] as? String == "bad_field", "\(invalid)")
        let s = try await server.state()
        #expect(s["rating_posts"] as? Int == 1 && s["ratings_counted"] as? Int == 1)
        #expect((s["votes"] as? [String: [String: Any]])?["api:banana"]?["votes"] as? Int == 11)
        #expect(sync.isRunning)
        // The service reports each sync to the daemon, which shows it in `status`.
        func service() throws -> [String: Any]? {
            (try rig.ask(#"{"cmd":"status"}"#, "STATUS")["services"] as? [[String: Any]])?.first { $0["service"] as? String == "hotcold-sync" }
        }
        try rig.waitFor("hotcold-sync's report") { (try service()?["detail"] as? String)?.contains("1 delivered") == true }
        let shown = try #require(try service())
        #expect(shown["state"] as? String == "idle" && shown["pending"] as? Int == 0 && shown["connected"] as? Bool == true, "\(shown)")
    }

    /// hotcold-sync killed with SIGKILL while its POST hangs after the server counted it:
    /// the item stays pending in the daemon, and the restarted process resends it with the
    /// same key; the server counts it once.
    @Test func killDashNineMidDeliveryThenRestartDeliversOnce() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let rig = try Rig(server: server); defer { rig.stop() }
        var sync = try rig.startSync()
        defer { sync.stop() }
        try rig.waitFor("the catalogue") {
            (try rig.ask(#"{"cmd":"sync","op":"etag"}"#, "SYNC")["result"] as? [String: Any])?["etag"] as? String != nil
        }
        try await server.faults([["action": "hang", "when": "after", "path": "ratings"]])
        _ = try rig.ask(#"{"cmd":"store","op":"rate","id":"api:banana","stars":2}"#, "STORE")
        #expect(try await server.wait { ($0["hanging"] as? Int) == 1 }, "\(sync.stderr)")
        sync.kill9()
        try await server.release()
        #expect(try rig.pending() == 1, "still pending in the daemon after the kill")

        sync = try rig.startSync()
        #expect(try await server.wait { ($0["rating_posts"] as? Int) == 2 }, "\(sync.stderr)")
        try rig.waitFor("the delivery to be recorded") { try rig.pending() == 0 }
        let s = try await server.state()
        #expect(s["ratings_counted"] as? Int == 1)
        #expect((s["votes"] as? [String: [String: Any]])?["api:banana"]?["votes"] as? Int == 11)
    }

    /// A submission whose photo makes the payload longer than one reply slice travels from
    /// the daemon in slices and arrives intact; queued before the sync process started, it
    /// goes as soon as the process connects.
    @Test func aLargePayloadComesFromTheDaemonInSlices() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let rig = try Rig(server: server); defer { rig.stop() }
        var bytes = [UInt8](repeating: 0, count: 300_000)
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in bytes.indices { seed = seed &* 6364136223846793005 &+ 1442695040888963407; bytes[i] = UInt8(seed >> 56) }
        do {
            let store = try Store.open(path: rig.daemon.dbPath)
            try store.submit(try Submission(user: "alice", name: "Big Wombat", latitude: -35.28, longitude: 149.13, seenAt: Date()),
                             photo: SubmissionPhoto(filename: "w.jpg", contentType: "image/jpeg", data: Data(bytes)))
        }
        let sync = try rig.startSync(); defer { sync.stop() }
        #expect(try await server.wait(seconds: 30) { ($0["submissions_counted"] as? Int) == 1 }, "\(sync.stderr)")
        let sub = (try await server.state()["submissions"] as? [[String: Any]])?.first
        #expect((sub?["photo"] as? [String: Any])?["size"] as? Int == 300_000)
        #expect((sub?["photo"] as? [String: Any])?["sha256"] as? String == SyncCLITests.sha256Hex(bytes))
        try rig.waitFor("the delivery to be recorded") { try rig.pending() == 0 }
    }

    /// The sync command changes delivery records: a user who is not a writer is refused
    /// (while the read commands still answer it).
    @Test func onlyWritersMayUseTheSyncCommand() async throws {
        let user = "hcsync-reader"
        _ = try? Subprocess.run(URL(fileURLWithPath: "/usr/sbin/useradd"), ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
        guard let pw = getpwnam(user) else { Issue.record("cannot create the user \(user)"); return }
        let server = try ReferenceServer(); defer { server.stop() }
        let dir = try TemporaryDirectory("sync-auth"); defer { dir.remove() }
        let config = dir.path("hc.toml")
        try "[socket]\nmode = \"0666\"\nallowed_users = []\nallowed_groups = []\n".write(toFile: config, atomically: true, encoding: .utf8)
        let rig = try Rig(server: server, daemonArgs: ["--config", config]); defer { rig.stop() }
        chmod(rig.daemon.dir.url.path, 0o755)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            f.readline()
            for line in (b'{"cmd":"sync","op":"pending"}', b'{"cmd":"version"}'):
                f.write(line + b"\\n"); f.flush(); print(f.readline().decode().strip())
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                   ["--reuid=\(pw.pointee.pw_uid)", "--regid=\(pw.pointee.pw_gid)", "--clear-groups",
                                    "/usr/bin/python3", "-c", script, rig.daemon.socketPath])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stdout)\(r.stderr)")
        #expect(lines.first?.contains(#""class":"ERROR""#) == true && lines.first?.contains("sync: not allowed for uid \(pw.pointee.pw_uid)") == true,
                "\(lines)")
        #expect(lines.last?.contains(#""class":"VERSION""#) == true)
        // Root (the test) may.
        #expect(try rig.pending() == 0)
    }
}

/// `hotcold-sync` as a subprocess, its stderr kept for messages.
final class SyncProcess: @unchecked Sendable {
    let process = Process()
    let stderrPath: String

    init(arguments: [String], dir: TemporaryDirectory, environment: [String: String] = [:]) throws {
        stderrPath = dir.path("sync-\(UUID().uuidString.prefix(8)).stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = Binaries.url("hotcold-sync")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CREDENTIALS_DIRECTORY")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGKILL: a child of the test runner inherits its blocked SIGTERM.
    func stop() { if process.isRunning { kill9() } }
}
