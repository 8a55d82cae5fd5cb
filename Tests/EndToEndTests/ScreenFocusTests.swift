import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18's screen points in a real terminal (tmux) against a real hotcoldd fed by a real
/// gpsd: the focus keys, and TERM=dumb printing a frame only when more than the clock changed.
@Suite(.offCooperativePool, .serialized) struct ScreenFocusTests {
    /// East at 10 m/s near Coffs Harbour.
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)

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

    /// A daemon hunting a target ahead on the road and one behind, nearer.
    func rig() throws -> Rig {
        let gpsd = try GPSDHarness.udp()
        let ahead = track.point(second: 150), behind = track.point(second: -40)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "\(ahead.latitude),\(ahead.longitude),Ahead Thing",
                                                   "--target", "\(behind.latitude),\(behind.longitude),Behind Thing"])
        try daemon.connect().waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        return Rig(gpsd: gpsd, daemon: daemon, feeder: feeder)
    }

    /// The row under the banner and the blank line: the focus target's name.
    func focusName(_ rows: [String]) -> String { rows.count > 2 ? rows[2] : "" }

    @Test func theFocusKeysMoveTheBigTarget() throws {
        let rig = try rig()
        defer { rig.stop() }
        let hotcold = Binaries.url("hotcold").path
        let tmux = try TmuxSession(width: 70, height: 24, command: "\(hotcold) watch --screen --socket \(rig.daemon.socketPath); sleep 60",
                                   environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        defer { tmux.kill() }
        // A hunt: both are hunted, the nearer is the focus at first.
        let first = try tmux.waitFor { rows in rows.contains { $0.contains("n/p focus") } && rows.count > 2 && rows[2].hasSuffix("Thing") }
        let start = focusName(first)
        let other = start == "Ahead Thing" ? "Behind Thing" : "Ahead Thing"
        #expect(first.last(where: { !$0.isEmpty })?.hasPrefix("● hotcoldd · hunt · n/p focus · q quits") == true, "\(first)")
        try tmux.sendKeys("n")
        let moved = try tmux.waitFor { focusName($0) == other }
        #expect(moved.contains { $0.contains("n/p focus, a auto") }, "\(moved)")
        // It stays there through status updates.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(focusName(try tmux.capture()) == other)
        try tmux.sendKeys("a")
        try tmux.waitFor { focusName($0) == start }
        try tmux.sendKeys("q")
    }

    @Test("TERM=dumb: ASCII frames, a new one only when more than the fix's age changed")
    func dumbTerminalPrintsOnChange() throws {
        let rig = try rig()
        defer { rig.stop() }
        let dir = try TemporaryDirectory("screen-dumb")
        defer { dir.remove() }
        let out = dir.path("pane.out")
        let hotcold = Binaries.url("hotcold").path
        // tmux sets its own TERM in the pane: the command sets dumb itself.
        let tmux = try TmuxSession(width: 60, height: 30, command: "TERM=dumb \(hotcold) watch --screen --socket \(rig.daemon.socketPath); sleep 60")
        defer { tmux.kill() }
        try tmux.tmux(["pipe-pane", "-o", "cat >> \(out)"])
        try tmux.waitFor { $0.contains { $0.hasPrefix("* hotcoldd") } }
        // Moving: frames come as the distances change.
        Thread.sleep(forTimeInterval: 2)
        rig.feeder.stop()
        // No more fixes: the figures go old (a frame labelled OLD), the daemon calls the fix
        // stale (a frame: the state and trends changed); from then on only the age ticks, and
        // no frame is printed for that.
        let text = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(30)
        while !text().contains("fix stale"), Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(text().contains("fix stale"))
        Thread.sleep(forTimeInterval: 1.5)
        let frames = { text().components(separatedBy: "* hotcoldd").count - 1 }
        let before = frames()
        Thread.sleep(forTimeInterval: 4)
        let after = frames()
        #expect(before > 1)
        let all = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").components(separatedBy: "\n\n")
        #expect(after == before, "\(after - before) frames printed while only the clock moved: \(all.suffix(3))")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
        #expect(!bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 }, "ASCII only")
        #expect(!bytes.contains(0x1B), "no escapes")
        #expect(text().contains("OLD: fix "), "the old figures are labelled")
        try tmux.sendKeys("q")
    }

    @Test("roam says how many places it tracks around the fix, not every candidate")
    func roamReportsWhatItTracks() throws {
        let rig = try rig()
        defer { rig.stop() }
        // Wait for a fix to reach the daemon.
        let deadline = Date().addingTimeInterval(20)
        var status = ""
        repeat {
            status = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", rig.daemon.socketPath]).stdout
            if status.contains("3D fix") || status.contains("last fix") { break }
            Thread.sleep(forTimeInterval: 0.3)
        } while Date() < deadline
        let r = try Subprocess.run(Binaries.url("hotcold"), ["roam", "5km", "--socket", rig.daemon.socketPath])
        #expect(r.status == 0, "\(r.stderr)")
        let m = try #require(r.stdout.firstMatch(of: /^hotcoldd now roams within 5.0 km: (\d+) places? tracked of (\d+) candidates\.\n$/),
                             "\(r.stdout)\(status)")
        let tracked = Int(m.1) ?? 0, candidates = Int(m.2) ?? 0
        #expect(tracked >= 1 && tracked < 20 && candidates > 400, "\(r.stdout)")
    }
}
