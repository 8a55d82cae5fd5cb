import Foundation
import HotColdTestSupport

/// What the bridge's end-to-end suites share: a drive, targets along it, a daemon on fixed paths
/// (so a restart keeps its socket, log and numbering) and readers of its log.
protocol BridgeSuite {
    var track: SyntheticTrack { get }
}

extension BridgeSuite {
    /// Targets on the road every `spacing` seconds of driving, from second `first`.
    func roadTargets(count: Int, first: Int, spacing: Int) -> [String] {
        (0..<count).map { i in
            let p = track.point(second: first + i * spacing)
            return "\(p.latitude),\(p.longitude),Thing \(i + 1)"
        }
    }

    /// `executable`: another build's `hotcoldd` (a before-and-after measurement).
    func startDaemon(_ dir: TemporaryDirectory, gpsd: GPSDHarness, targets: [String], executable: URL? = nil) throws -> DaemonProcess {
        let d = try DaemonProcess(arguments: ["--socket", dir.path("hc.sock"), "--log", dir.path("events.jsonl"),
                                              "--db", dir.path("hc.sqlite"), "--gpsd", "127.0.0.1:\(gpsd.port)"]
                                  + targets.flatMap { ["--target", $0] },
                                  waitForSocket: false, executable: executable, extraFiles: false)
        try d.waitFor(dir.path("hc.sock"))
        return d
    }

    /// The engine's events in the daemon's log (PROXIMITY, ARRIVED, DEPARTED, GPS): what the
    /// bridge publishes on `…/event`. The log also numbers the friends' events (FEED, LIKE,
    /// RECORD, FOLLOWING_CHANGED), which go to `…/feed` and `…/likes` or nowhere.
    func logEvents(_ dir: TemporaryDirectory) -> [String] {
        ((try? String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
            .filter { line in ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"].contains { line.hasPrefix(#"{"class":"\#($0)""#) } }
    }

    func seq(_ line: String) -> Int? { LineClient.object(line)?["seq"] as? Int }
}
