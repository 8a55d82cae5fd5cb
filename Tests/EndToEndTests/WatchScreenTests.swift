import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `hotcold watch --screen` in a real terminal (tmux), against a real hotcoldd fed by a real
/// gpsd: what the screen shows, how it redraws on a resize, and that the terminal is given back
/// after `q`, Ctrl-C and SIGTERM.
@Suite(.offCooperativePool, .serialized) struct WatchScreenTests {
    /// East at 10 m/s near Coffs Harbour; the target on the road 1.5 km ahead.
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
    let tierWords = ["burning", "hot", "warm", "mild", "cool", "cold", "chilly", "freezing"]

    /// A daemon hunting one target, its gpsd fed the track; stop with `stop()`.
    struct Rig {
        let gpsd: GPSDHarness
        let daemon: DaemonProcess
        let feeder: NMEAFeeder
        func stop() {
            feeder.stop()
            daemon.stop()
            gpsd.terminate()
        }
    }

    func rig() throws -> Rig {
        let gpsd = try GPSDHarness.udp()
        let p = track.point(second: 150)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--target",
                                                   "\(p.latitude),\(p.longitude),Roadside Thing"])
        try daemon.connect().waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        return Rig(gpsd: gpsd, daemon: daemon, feeder: feeder)
    }

    /// The shell command for the pane: the terminal's settings before and after, and the exit
    /// status, written to files; then it idles so the pane can be inspected.
    func command(_ socket: String, _ dir: TemporaryDirectory) -> String {
        let hotcold = Binaries.url("hotcold").path
        return "stty -g > \(dir.path("before")); \(hotcold) watch --screen --socket \(socket); "
            + "echo $? > \(dir.path("status")); stty -g > \(dir.path("after")); sleep 60"
    }

    func file(_ path: String, timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let s = try? String(contentsOfFile: path, encoding: .utf8), s.hasSuffix("\n") {
                return s.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            usleep(50_000)
        }
        throw TestFailure("no \(path) after \(timeout) s")
    }

    /// After the screen exits: the exit status; the main screen back, the cursor shown, and
    /// the terminal's settings as they were.
    func expectRestored(_ tmux: TmuxSession, _ dir: TemporaryDirectory, status: String) throws {
        #expect(try file(dir.path("status")) == status)
        #expect(try file(dir.path("after")) == (try file(dir.path("before"))))
        #expect(try tmux.display("#{alternate_on}") == "0")
        #expect(try tmux.display("#{cursor_flag}") == "1")
    }

    @Test func showsTheHuntRedrawsOnResizeAndQuitsOnQ() throws {
        let rig = try rig()
        defer { rig.stop() }
        let dir = try TemporaryDirectory("screen")
        defer { dir.remove() }
        // NO_COLOR empty counts as unset (no-color.org); the test runner may set it.
        let tmux = try TmuxSession(width: 60, height: 20, command: command(rig.daemon.socketPath, dir),
                                   environment: ["NO_COLOR": "", "TERM": "xterm-256color"])
        defer { tmux.kill() }

        // "hotter" can come before the first SKY fills the status row: wait for both.
        let screen = try tmux.waitFor { rows in
            rows.contains("Roadside Thing") && rows.contains { $0.contains("hotter") }
                && ((rows.first ?? "").hasPrefix("3D fix") || (rows.first ?? "").hasPrefix("2D fix"))
        }
        let text = screen.joined(separator: "\n")
        #expect(try tmux.display("#{alternate_on}") == "1")
        #expect(text.range(of: #"\d+(\.\d)? k?m  [↑↗→↘↓↙←↖] "#, options: .regularExpression) != nil, "\(text)")
        #expect(tierWords.contains { w in screen.contains { $0.hasSuffix(" \(w)") } }, "\(text)")
        #expect(screen[0].hasPrefix("3D fix") || screen[0].hasPrefix("2D fix"), "\(screen[0])")
        #expect(screen.contains { $0.hasPrefix("● hotcoldd") })
        // Moving at 10 m/s straight at the target: the arrow is relative to the course.
        #expect(text.contains("↑ ahead"), "\(text)")
        // The tier is coloured (some SGR colour on the screen).
        let coloured = try tmux.capture(escapes: true).joined()
        #expect(coloured.range(of: "\u{1B}\\[[0-9;]*(3[1-6]|9[1-6])[;m]", options: .regularExpression) != nil,
                "\(coloured.replacingOccurrences(of: "\u{1B}", with: "^["))")

        try tmux.resize(width: 24, height: 7)
        let small = try tmux.waitFor { rows in
            rows.count == 7 && rows.contains("Roadside Thing") && rows.contains { $0.contains("hotter") }
                && (rows.first ?? "").hasPrefix("3D")
        }
        // Every row is one line of the layout, none wrapped into the next.
        #expect(small.allSatisfy { $0.count <= 24 })
        #expect(small.filter { $0.hasPrefix("Roadside") }.count == 1, "\(small)")

        try tmux.sendKeys("q")
        try expectRestored(tmux, dir, status: "0")
    }

    @Test func ctrlCAndSIGTERMRestoreTheTerminal() throws {
        let rig = try rig()
        defer { rig.stop() }
        for (how, status) in [("C-c", "130"), ("TERM", "143")] {
            let dir = try TemporaryDirectory("screen")
            defer { dir.remove() }
            let tmux = try TmuxSession(width: 50, height: 12, command: command(rig.daemon.socketPath, dir),
                                       environment: ["NO_COLOR": "1"])
            defer { tmux.kill() }
            try tmux.waitFor { $0.contains("Roadside Thing") && $0.contains { $0.contains("█") } }
            // NO_COLOR: bold and reverse video, but no colour.
            let mono = try tmux.capture(escapes: true).joined()
            #expect(mono.contains("\u{1B}[7m"))
            #expect(mono.range(of: "\u{1B}\\[[0-9;]*(3[1-6]|9[1-6])[;m]", options: .regularExpression) == nil)
            if how == "C-c" {
                try tmux.sendKeys("C-c")
            } else {
                // The pane's shell waits on one child: the screen.
                let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", try tmux.display("#{pane_pid}")])
                let pid = try #require(Int32(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(r.stdout)")
                #expect(kill(pid, SIGTERM) == 0)
            }
            try expectRestored(tmux, dir, status: status)
        }
    }

    @Test func theDaemonGoingAwayIsShownAndTheScreenReconnects() throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let first = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--target", "-30.3,153.1,Start"])
        defer { first.stop() }
        let socket = first.socketPath
        let dir = try TemporaryDirectory("screen")
        defer { dir.remove() }
        let tmux = try TmuxSession(width: 40, height: 10, command: command(socket, dir))
        defer { tmux.kill() }
        try tmux.waitFor { $0.contains { $0.hasPrefix("● hotcoldd") } }
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 10) != nil)
        try tmux.waitFor { $0.contains("daemon gone, reconnecting…") }
        #expect(try tmux.display("#{alternate_on}") == "1")
        // A new daemon on the same socket: the screen finds it again by itself.
        let second = try DaemonProcess(arguments: ["--socket", socket, "--log", dir.path("events.jsonl"),
                                                   "--db", dir.path("hc.sqlite"), "--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "-30.3,153.1,Start"], waitForSocket: false, extraFiles: false)
        defer { second.stop() }
        try second.waitFor(socket)
        try tmux.waitFor { $0.contains { $0.hasPrefix("● hotcoldd") } }
        try tmux.sendKeys("q")
        try expectRestored(tmux, dir, status: "0")
    }
}
