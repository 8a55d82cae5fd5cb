import ArgumentParser
import Foundation
import HotColdCore

/// `hotcold status`: what the daemon is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show hotcoldd's state: GPS, last fix, tracked targets, counters.",
        discussion: """
            Examples:
              hotcold status
              hotcold status --json --socket /tmp/hc.sock
            """)

    @Option(help: "The daemon's socket (default $HOTCOLD_SOCKET or /run/hotcold/hotcold.sock).")
    var socket: String?

    @Flag(help: "Print the STATUS object as JSON.")
    var json = false

    func run() throws {
        do {
            let c = try DaemonConnection(path: DaemonConnection.defaultPath(socket))
            try c.send(#"{"cmd":"status"}"#)
            let line = try c.reply("STATUS")
            if json { print(line); return }
            print(StatusText.render(line))
        } catch let e as CLIError {
            warn("hotcold status: \(e.description)")
            throw ExitCode(e.code)
        }
    }
}

enum StatusText {
    static func render(_ line: String) -> String {
        guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return line }
        var out: [String] = []
        let gps = o["gps"] as? [String: Any] ?? [:]
        out.append("hotcoldd \(o["release"] ?? "?"), up \(JSONLine.number((o["uptime_s"] as? Double) ?? 0, decimals: 0)) s")
        var g = "gpsd: \(gps["link"] ?? "?")"
        if let r = gps["reason"] { g += " (\(r))" }
        g += ", GPS \(gps["state"] ?? "?")"
        out.append(g)
        if let f = gps["last_fix"] as? [String: Any] {
            var s = "last fix: \(f["time"] ?? "?") at \(f["lat"] ?? "?"),\(f["lon"] ?? "?")"
            if let a = f["accuracy_m"] { s += " ±\(a) m" }
            out.append(s)
        }
        if let t = o["tracking"] as? [String: Any] {
            var s = "tracking: \(t["mode"] ?? "?")"
            if let r = t["radius_m"] as? Double { s += " within \(DistanceFormat.text(r))" }
            s += ", \(t["tracked"] ?? 0) tracked of \(t["candidates"] ?? 0)"
            out.append(s)
        }
        for t in o["targets"] as? [[String: Any]] ?? [] {
            let name = (t["target"] as? [String: Any])?["name"] ?? "?"
            let d = (t["distance_m"] as? Double).map(DistanceFormat.text) ?? "?"
            let b = (t["bearing_deg"] as? Double).map(DistanceFormat.compass) ?? "?"
            out.append("  \(name): \(d) \(b), \(t["tier_name"] ?? "?"), \(t["trend"] ?? "?")\((t["arrived"] as? Bool) == true ? ", arrived" : "")")
        }
        if let c = o["counters"] as? [String: Any] {
            out.append("fixes \(c["fixes"] ?? 0), events \(c["events"] ?? 0), outliers \(c["outliers"] ?? 0)")
        }
        if let s = o["socket"] as? [String: Any] {
            out.append("clients \(s["clients"] ?? 0) (total \(s["clients_total"] ?? 0), dropped \(s["dropped"] ?? 0))")
        }
        if let l = o["log"] as? [String: Any] {
            out.append("log \(l["path"] ?? "?"): \((l["writing"] as? Bool) == true ? "ok" : "NOT WRITING: \(l["error"] ?? "?")")")
        }
        if let l = o["latency_us"] as? [String: Any] {
            out.append("fix-to-socket latency: p50 \(l["p50"] ?? 0) µs, p99 \(l["p99"] ?? 0) µs (\(l["samples"] ?? 0) fixes)")
        }
        return out.joined(separator: "\n")
    }
}
