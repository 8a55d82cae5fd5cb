import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// gpsd 3.22 reports the satellites used in SKY, not in TPV: a real receiver's recording
/// replayed by gpsfake must show them in `status` and on the screen, with the count gpsd itself
/// reported (the recording's `.chk` file holds gpsd's own output: every SKY says `"uSat":8`).
@Suite(.offCooperativePool, .serialized, .enabled(if: GPSDHarness.gpsfakeAvailable)) struct SatellitesFromSkyTests {
    static let log = TestData.url("gpsd-logs/garmin15x.log")

    /// The `uSat` figures gpsd printed for the recording.
    static func usedCounts() throws -> Set<Int> {
        let chk = try String(contentsOf: URL(fileURLWithPath: log.path + ".chk"), encoding: .utf8)
        var out: Set<Int> = []
        for line in chk.split(separator: "\n") where line.contains(#""class":"SKY""#) {
            guard let r = line.range(of: #""uSat":"#) else { continue }
            out.insert(Int(line[r.upperBound...].prefix { $0.isNumber }) ?? -1)
        }
        return out
    }

    @Test func statusAndScreenShowTheSatellitesGPSDReportedInSky() throws {
        let expected = try Self.usedCounts()
        #expect(expected == [8], "the recording's SKY lines all say 8 used")
        let gpsd = try GPSDHarness.gpsfake(log: Self.log, cycle: 0.2)
        defer { gpsd.terminate() }
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "45.0,-122.0,Somewhere"])
        defer { daemon.stop() }
        let hotcold = Binaries.url("hotcold").path
        // `hotcold status` once a fix with a SKY behind it is in (a deadline only for when it
        // never comes: on a loaded machine the replay and each `hotcold` run are slow).
        var text = ""
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let r = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", daemon.socketPath])
            text = r.stdout
            if text.contains("satellites used") { break }
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect(text.contains(", 8 satellites used"), "\(text)")
        let json = try Subprocess.run(Binaries.url("hotcold"), ["status", "--json", "--socket", daemon.socketPath]).stdout
        let status = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let lastFix = (status["gps"] as? [String: Any])?["last_fix"] as? [String: Any]
        #expect(lastFix?["satellites"] as? Int == 8, "\(json)")
        // The screen's banner says so too.
        let tmux = try TmuxSession(width: 80, height: 24, command: "\(hotcold) watch --screen --socket \(daemon.socketPath); sleep 60",
                                   environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        defer { tmux.kill() }
        let rows = try tmux.waitFor { $0.contains { $0.contains("8 sat") } }
        #expect(rows.first?.contains("8 sat") == true, "\(rows)")
    }
}
