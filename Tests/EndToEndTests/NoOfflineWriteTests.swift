import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18: a change goes to the daemon or fails. With hotcoldd on a socket the client was not
/// told about, no command may quietly use a database file of its own (which the daemon never
/// reads): it exits 69, names the socket it tried and says how to pick another or work offline.
@Suite(.offCooperativePool) struct NoOfflineWriteTests {
    let banana = "halans:d0577fb8cf"

    /// Every file under `dir`, relative: what a command left behind.
    func files(under dir: TemporaryDirectory) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.url.path)
        var out: [String] = []
        while let p = e?.nextObject() as? String { out.append(p) }
        return out.sorted()
    }

    @Test("without --db, every store command exits 69 when the daemon is elsewhere, and writes no file")
    func unreachableDaemonWritesNothing() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let home = try TemporaryDirectory("hotcold-home")
        defer { home.remove() }
        let elsewhere = home.path("run/hotcold.sock")
        // A fresh user's environment: HOME and XDG's data folder empty, the socket not the daemon's.
        let env = ["HOME": home.url.path, "XDG_DATA_HOME": home.path("xdg"), "HOTCOLD_SOCKET": elsewhere,
                   "HOTCOLD_DB": ""]
        let commands: [[String]] = [["fav", banana], ["seen", banana], ["rate", banana, "4"], ["note", banana, "x"],
                                    ["add", "Camp", "--at=-30.1,153.1"], ["things"], ["visits"], ["show", banana]]
        for args in commands {
            let r = try Subprocess.run(Binaries.url("hotcold"), args, environment: env)
            #expect(r.status == 69, "\(args): exit \(r.status): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
            #expect(r.stderr == "hotcold \(args[0]): cannot reach hotcoldd at \(elsewhere): No such file or directory; "
                    + "start hotcoldd, name its socket with --socket PATH or $HOTCOLD_SOCKET, "
                    + "or work offline on a database file with --db PATH\n", "\(args)")
        }
        #expect(files(under: home) == [], "left behind: \(files(under: home))")

        // The same command reaches the daemon when told where it is, and works offline when asked.
        let there = try Subprocess.run(Binaries.url("hotcold"), ["fav", banana, "--socket", daemon.socketPath], environment: env)
        #expect(there.status == 0, "\(there.stderr)")
        let offline = try Subprocess.run(Binaries.url("hotcold"), ["fav", banana, "--db", home.path("trip.sqlite")], environment: env)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(files(under: home) == ["trip.sqlite"] || files(under: home).allSatisfy { $0.hasPrefix("trip.sqlite") },
                "\(files(under: home))")
        #expect(daemon.process.isRunning)
    }

    @Test("the tracking commands, which have no --db, point at --socket only")
    func trackingCommandsNameTheSocket() throws {
        let dir = try TemporaryDirectory("hotcold-nowhere")
        defer { dir.remove() }
        let nowhere = dir.path("none.sock")
        for args in [["status"], ["hunt", banana], ["roam", "5km"], ["watch"]] {
            let r = try Subprocess.run(Binaries.url("hotcold"), args + ["--socket", nowhere])
            #expect(r.status == 69, "\(args): exit \(r.status): \(r.stderr)")
            #expect(r.stderr == "hotcold \(args[0]): cannot reach hotcoldd at \(nowhere): No such file or directory; "
                    + "start hotcoldd, or name its socket with --socket PATH or $HOTCOLD_SOCKET\n", "\(args)")
        }
    }

    @Test("a socket file with nothing behind it is no reason to use a file either")
    func staleSocketIsUnavailable() throws {
        let dir = try TemporaryDirectory("hotcold-stale")
        defer { dir.remove() }
        let stale = dir.path("stale.sock")
        // Bind and close a listening socket: the file stays, nobody listens.
        let py = "import socket; s=socket.socket(socket.AF_UNIX); s.bind('\(stale)'); s.close()"
        let made = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", py])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try Subprocess.run(Binaries.url("hotcold"), ["fav", banana],
                                   environment: ["HOME": dir.url.path, "HOTCOLD_SOCKET": stale])
        #expect(r.status == 69, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.hasPrefix("hotcold fav: cannot reach hotcoldd at \(stale): "), "\(r.stderr)")
        #expect(files(under: dir) == ["stale.sock"])
    }
}

/// `hotcold watch` (text) when the daemon goes away: it says so and exits 69, as its --help says.
@Suite(.offCooperativePool) struct WatchEndsWithTheDaemonTests {
    @Test func watchExits69WhenTheDaemonGoesAway() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        let watch = Process()
        watch.executableURL = Binaries.url("hotcold")
        watch.arguments = ["watch", "--socket", daemon.socketPath]
        let err = Pipe()
        watch.standardError = err
        watch.standardOutput = FileHandle.nullDevice
        try watch.run()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(watch.isRunning)
        daemon.stop()
        let deadline = Date().addingTimeInterval(15)
        while watch.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if watch.isRunning { watch.terminate() }
        watch.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watch.terminationStatus == 69, "\(stderr)")
        #expect(stderr.hasPrefix("hotcold watch: "), "\(stderr)")
        let help = try Subprocess.run(Binaries.url("hotcold"), ["watch", "--help"])
        #expect(help.stdout.contains("exits with status 69"), "\(help.stdout)")
    }
}
