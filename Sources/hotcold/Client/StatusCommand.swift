import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol

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

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the STATUS object as JSON.")
    var json = false

    func run() throws {
        let c = try connection.connect()
        let line = try DaemonLink.run { () throws(ClientError) in
            try c.send(.status)
            return try c.line(ofClass: StatusReply.wireClass)
        }
        if json { printJSON(line); return }
        let status: StatusReply
        do throws(ProtocolError) {
            status = try WireCoding.decode(StatusReply.self, from: line)
        } catch {
            throw DaemonLink.cliError(.badReply(error))
        }
        print(StatusText.render(status))
    }
}

enum StatusText {
    static func render(_ o: StatusReply) -> String {
        var out: [String] = []
        out.append("hotcoldd \(o.release), up \(Int(clamping: Int64(exactly: o.uptimeS.rounded()) ?? 0)) s")
        var g = "gpsd: \(o.gps.link)"
        if let r = o.gps.reason { g += " (\(r))" }
        g += ", GPS \(o.gps.state)"
        out.append(g)
        if let f = o.gps.lastFix {
            var s = "last fix: \(ISO8601.format(f.time)) at \(f.lat),\(f.lon)"
            if let a = f.accuracyM { s += " ±\(a) m" }
            // gpsd 3.22 reports satellites in SKY, not TPV: known only once a SKY came.
            if let n = f.satellites { s += ", \(n) satellite\(n == 1 ? "" : "s") used" }
            if let age = f.ageS { s += ", \(Int(age.rounded())) s ago" }
            out.append(s)
            // Ages above come from the daemon's monotonic clock; this only says the clocks disagree.
            if let off = f.clockOffsetS, abs(off) >= 60 {
                out.append("clock off by \(Self.span(abs(off))): the fix's time is \(off > 0 ? "ahead of" : "behind") this box's clock (no real-time clock, or a replayed recording)")
            }
        }
        var s = "tracking: \(o.tracking.mode)"
        if let r = o.tracking.radiusM { s += " within \(DistanceFormat.text(r))" }
        s += ", \(o.tracking.tracked) tracked of \(o.tracking.candidates)"
        out.append(s)
        for t in o.targets {
            out.append("  \(t.target.name): \(DistanceFormat.text(t.distanceM)) \(DistanceFormat.compass(t.bearingDeg)), \(t.tierName), \(t.trend)\(t.arrived ? ", arrived" : "")")
        }
        if let more = o.targetsMore { out.append("  … and \(more) more, farther") }
        if let friends = o.friends, !friends.isEmpty {
            out.append("friends: \(friends.count) on the radar")
            for f in friends { out.append("  \(f.name) (\(f.who)): \(FriendText.radar(f)), heard \(Int(f.ageS)) s ago") }
        }
        if let f = o.feed, f.dropped + f.ownNotKept > 0 {
            out.append("feed: \(f.dropped) items dropped (a friend's device past its share of 1,000, or the oldest past 10,000)"
                       + (f.ownNotKept > 0 ? ", \(f.ownNotKept) own finds not kept" : ""))
        }
        if let e = o.databaseError { out.append("database: CHANGES REFUSED: \(e)") }
        out.append("fixes \(o.counters.fixes), events \(o.counters.events), outliers \(o.counters.outliers)")
        if let s = o.socket {
            out.append("clients \(s.clients) (total \(s.clientsTotal), dropped \(s.dropped))")
        }
        if let l = o.log {
            var line = "log \(l.path): \(l.writing ? "ok" : "NOT WRITING: \(l.error ?? "?")")"
            if let n = l.syncs { line += ", \(n) syncs" }
            if let n = l.databaseSyncs { line += "; database \(n) syncs" }
            out.append(line)
        }
        if let u = o.uncleanStop {
            var line = "last unclean stop (power cut or crash): noticed at start \(ISO8601.format(u.noticed))"
            if let w = u.lastLogWrite { line += ", log last written \(ISO8601.format(w))" }
            if let a = u.gapFirstSeq, let b = u.gapLastSeq {
                line += "; events \(a)–\(b) may be missing from the log (a GAP line says so)"
            } else {
                line += "; the log lost nothing"
            }
            out.append(line)
        }
        out.append("fix-to-socket latency: p50 \(o.latencyUs.p50) µs, p99 \(o.latencyUs.p99) µs (\(o.latencyUs.samples) fixes)")
        for s in o.services ?? [] { out.append(service(s, now: o.time)) }
        return out.joined(separator: "\n")
    }

    /// `3 h 12 min`, `5 days`, `2 years`: how far apart two clocks are.
    static func span(_ seconds: Double) -> String {
        switch seconds {
        case ..<3600: "\(Int(seconds / 60)) min"
        case ..<86_400: "\(Int(seconds / 3600)) h \(Int(seconds.truncatingRemainder(dividingBy: 3600) / 60)) min"
        case ..<(2 * 365.25 * 86_400): "\(Int(seconds / 86_400)) days"
        default: "\(Int(seconds / (365.25 * 86_400))) years"
        }
    }

    /// `hotcold-mqtt: connected, acked seq 1234, 0 pending (broker …), reported 3 s ago`.
    static func service(_ s: StatusReply.Service, now: Date) -> String {
        var parts = [s.connected ? s.state : "GONE (its connection closed; last said \(s.state))"]
        if let a = s.ackedSeq { parts.append("acked seq \(a)") }
        if let p = s.pending { parts.append("\(p) pending") }
        var line = "\(s.service): " + parts.joined(separator: ", ")
        if let d = s.detail, !d.isEmpty { line += " (\(d))" }
        let age = max(0, now.timeIntervalSince(s.reportedAt))
        line += ", reported \(Int(clamping: Int64(exactly: age.rounded()) ?? 0)) s ago"
        return line
    }
}
