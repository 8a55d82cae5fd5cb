import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hotcold`'s exit statuses (sysexits.h, README "Exit status") from the built binary against
/// a real hotcoldd: what a script branches on must not change by accident.
@Suite(.offCooperativePool) struct ExitStatusTests {
    let banana = "halans:d0577fb8cf"

    func hotcold(_ args: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args,
                           environment: ["HOTCOLD_DB": "/nonexistent/should-not-be-used.sqlite"].merging(environment) { $1 })
    }

    /// `hotcold ARGS` as a uid with no passwd entry and no groups, through setpriv.
    func hotcold(asUID uid: UInt32, _ args: [String]) throws -> ProcessResult {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                           ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Binaries.url("hotcold").path] + args)
    }

    @Test("64: a wrong command line, whichever command")
    func usage() throws {
        for args in [["status", "--no-such-option"], ["roam", "far"], ["hunt"], ["things", "--sort", "colour"],
                     ["replay", "x.nmea"]] {
            let r = try hotcold(args)
            #expect(r.status == 64, "\(args): exit \(r.status): \(r.stderr)")
        }
    }

    @Test("69: no daemon at the socket, for the tracking, status and store commands alike")
    func unavailable() throws {
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        let nowhere = dir.path("none.sock")
        for args in [["status"], ["hunt", banana], ["roam", "5km"], ["watch"], ["things"], ["seen", banana]] {
            let r = try hotcold(args + ["--socket", nowhere])
            #expect(r.status == 69, "\(args): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.hasPrefix("hotcold \(args[0]): cannot reach hotcoldd at \(nowhere)"), "\(r.stderr)")
        }
    }

    @Test("66 for a missing file, 65 for a bad one and for an unknown place: through the daemon and with --db the same")
    func inputErrors() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        let broken = dir.path("broken.json")
        try #"{"things": [ {"id": 1,, } ]}"#.write(toFile: broken, atomically: true, encoding: .utf8)
        let db = dir.path("direct.sqlite")
        for via in [["--socket", daemon.socketPath], ["--db", db]] {
            let missing = try hotcold(["import", dir.path("no-such.gpx")] + via)
            #expect(missing.status == 66, "\(via): exit \(missing.status): \(missing.stderr)")
            #expect(missing.stderr.contains("no-such.gpx: no such file"), "\(missing.stderr)")
            let folder = try hotcold(["import", dir.url.path] + via)
            #expect(folder.status == 66, "\(via): exit \(folder.status): \(folder.stderr)")
            let bad = try hotcold(["import", broken] + via)
            #expect(bad.status == 65, "\(via): exit \(bad.status): \(bad.stderr)")
            #expect(bad.stderr.contains("broken.json") && bad.stderr.contains("line 1"), "\(bad.stderr)")
            let unknown = try hotcold(["seen", "halans:0000000000"] + via)
            #expect(unknown.status == 65, "\(via): exit \(unknown.status): \(unknown.stderr)")
            let stars = try hotcold(["rate", banana, "9"] + via)
            #expect(stars.status == 65 || stars.status == 64, "\(via): exit \(stars.status): \(stars.stderr)")
        }
        let track = try hotcold(["replay", dir.path("no-such.nmea"), "--target", "-30,153"])
        #expect(track.status == 66, "exit \(track.status): \(track.stderr)")
        #expect(daemon.process.isRunning)
    }

    @Test("73: an export to a folder that does not exist, said in our words")
    func cannotCreate() throws {
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        let r = try hotcold(["export", "--format", "gpx", "--db", dir.path("x.sqlite"), "--output", dir.path("no/such/dir/out.gpx")])
        #expect(r.status == 73, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("cannot write \(dir.path("no/such/dir/out.gpx")): no folder"), "\(r.stderr)")
    }

    @Test("77: the daemon refuses a write (not_allowed), or the socket's mode keeps the user out",
          .enabled(if: UnixAccounts.available))
    func noPermission() throws {
        let config = try TemporaryDirectory("hotcold-exit")
        defer { config.remove() }
        try """
            [socket]
            mode = "0666"
            allowed_users = []
            allowed_groups = []
            """.write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let uid = UnixAccounts.unusedUID()
        // Reading is open to anyone who can open the socket; writing is not.
        let status = try hotcold(asUID: uid, ["status", "--socket", daemon.socketPath])
        #expect(status.status == 0, "exit \(status.status): \(status.stderr)")
        for args in [["hunt", banana], ["roam", "5km"], ["seen", banana]] {
            let r = try hotcold(asUID: uid, args + ["--socket", daemon.socketPath])
            #expect(r.status == 77, "\(args): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains("not allowed for"), "\(r.stderr)")
        }
        // A socket this user cannot open at all: permission denied by the kernel, still 77.
        chmod(daemon.socketPath, 0o600)
        let shut = try hotcold(asUID: uid, ["status", "--socket", daemon.socketPath])
        #expect(shut.status == 77, "exit \(shut.status): \(shut.stderr)")
        #expect(daemon.process.isRunning)
    }

    /// A scripted stand-in for the daemon (Tests/Clients/scripted_daemon.py) answering every
    /// request with `reply`; the greeting is the real protocol's.
    func withScriptedDaemon(replying reply: String, _ body: (String) throws -> Void) throws {
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        let path = dir.path("hc.sock")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [TestData.repo("Tests/Clients/scripted_daemon.py").path, path,
                       #"{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":4}"#, reply]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        // SIGKILL: a child of the test runner may start with SIGTERM blocked.
        defer { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        let ready = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard ready.hasPrefix("ready") else { throw TestFailure("scripted daemon: \(ready)") }
        try body(path)
    }

    @Test("75 when the daemon is busy or a quota is reached, 70 for its internal error, 76 for a reply that is not the protocol",
          arguments: [
              (#"{"class":"ERROR","code":"busy","command":"hunt","message":"busy: a write is in flight"}"#, Int32(75)),
              (#"{"class":"ERROR","code":"quota","command":"hunt","message":"quota reached: 10000 locations"}"#, 75),
              (#"{"class":"ERROR","code":"internal","command":"hunt","message":"internal error"}"#, 70),
              (#"{"class":"TRACKING","mode":"sideways"}"#, 76),
              ("this is not JSON", 76),
          ])
    func daemonReplies(reply: String, expected: Int32) throws {
        try withScriptedDaemon(replying: reply) { path in
            let r = try hotcold(["hunt", banana, "--socket", path])
            #expect(r.status == expected, "exit \(r.status): \(r.stderr)")
            #expect(r.stderr.hasPrefix("hotcold hunt: "), "\(r.stderr)")
        }
    }

    @Test("74: a database file that is not a database (--db)")
    func ioError() throws {
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: db))
        let r = try hotcold(["things", "--db", db])
        #expect(r.status == 74, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains(db), "\(r.stderr)")
    }

    @Test("78: a configuration file that is wrong")
    func configuration() throws {
        let dir = try TemporaryDirectory("hotcold-exit")
        defer { dir.remove() }
        try "[engine\n".write(toFile: dir.path("bad.toml"), atomically: true, encoding: .utf8)
        let r = try hotcold(["replay", TestData.repo("demo/coffs-harbour-drive.nmea").path, "--target", "-30,153",
                             "--config", dir.path("bad.toml")])
        #expect(r.status == 78, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.hasPrefix("hotcold replay: "), "\(r.stderr)")
    }

    @Test("0 when all is well, and --help is not an error")
    func success() throws {
        #expect(try hotcold(["--help"]).status == 0)
        #expect(try hotcold(["import", "--help"]).status == 0)
    }
}
