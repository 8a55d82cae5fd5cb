import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol

/// `hotcold watch`: subscribe to hotcoldd's events.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show hotcoldd's events live: distance, direction, tier and trend of each target.",
        discussion: """
            Without --json, one readable line per event: trend in colour (red hotter, blue \
            colder), arrivals highlighted. Stops with Ctrl-C. When the daemon goes away it says \
            so and exits with status 69 (a script or systemd can start it again); --screen \
            reconnects by itself instead.

            Examples:
              hotcold watch
              hotcold watch --json --class ARRIVED --class DEPARTED
              hotcold watch --socket /tmp/hc.sock --target GC2T9RW
              hotcold watch --screen

            With --screen, a full-screen view for a small display instead: the focus target \
            large (distance, arrow, tier gauge, trend, ETA), the others below, GPS state on top. \
            The focus is the hunted target, else the nearest ahead of the car; n and p move it, \
            a makes it automatic again. It redraws on resize, reconnects when the daemon \
            restarts, honours NO_COLOR and TERM=dumb; q quits.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the raw JSON lines.")
    var json = false

    @Option(name: .customLong("class"), help: "Only these event classes (repeatable): PROXIMITY, ARRIVED, DEPARTED, GPS, QUEUED, FEED, LIKE, LIKE_RECEIVED, RECORD, FOLLOWING_CHANGED; FIX (each fix, live) only when named.",
            completion: .list(WatchRequest.eventClasses))
    var classes: [String] = []

    @Option(name: .customLong("target"), help: "Only events about these target ids (repeatable).")
    var targets: [String] = []

    @Option(help: "Stop after this many events (for scripts).")
    var count: Int?

    @Flag(help: "Never colour the output (default: colour when stdout is a terminal).")
    var noColor = false

    @Flag(help: "A full-screen live view: the nearest target large, the others below, GPS state. q quits.")
    var screen = false

    func run() throws {
        if screen { return try LiveScreen.run(socket: connection.socket, noColor: noColor, alone: !json && count == nil && classes.isEmpty && targets.isEmpty) }
        let c = try connection.connect()
        let request = WatchRequest(enable: true, classes: classes.isEmpty ? nil : classes,
                                   targets: targets.isEmpty ? nil : targets)
        _ = try DaemonLink.run { () throws(ClientError) in try c.call(.watch(request), expecting: WatchReply.self) }
        let colour = !noColor && !json && isatty(STDOUT_FILENO) == 1
        var seen = 0
        let out = OutputBuffer()
        while let line = try DaemonLink.run({ () throws(ClientError) in try c.readLine(timeout: 1e6) }) {
            let text: String
            // Only EventText's own colours go out as they are: it made each name in them safe.
            var painted = false
            if let event = try DaemonLink.run({ () throws(ClientError) in try Self.event(line) }) {
                text = EventText.line(event.event, colour: colour, clock: true)
                painted = colour
            } else if let friends = FriendText.event(line, now: Date()) {
                text = friends
            } else if let fix = try? FixEvent.decode(line: line) {
                text = Self.fixLine(fix)
            } else {
                continue
            }
            // One write per line: the view must keep up live even when piped.
            if json { out.json(line) } else if painted { out.painted(text) } else { out.line(text) }
            out.flush()
            seen += 1
            if let count, seen >= count { return }
        }
        throw CLIError("hotcoldd at \(connection.path) went away after \(seen) event\(seen == 1 ? "" : "s"); "
                       + "watch ends here (watch --screen reconnects by itself)", code: .unavailable)
    }

    /// "07:00:19  fix -30.0472083,152.9738667 ±19 m 58 km/h 143°" (a FIX, asked for by name).
    static func fixLine(_ f: FixEvent) -> String {
        var s = "\(ISO8601.format(f.time).dropFirst(11).prefix(8))  fix \(f.lat),\(f.lon)"
        if let a = f.accuracyM { s += " ±\(Int(a.rounded())) m" }
        if let v = f.speedMps { s += " \(Int((v * 3.6).rounded())) km/h" }
        if let c = f.trackDeg { s += " \(Int(c.rounded()))°" }
        return s
    }

    /// An engine event line; an ERROR line is the daemon's refusal (thrown); nil for the rest.
    static func event(_ line: String) throws(ClientError) -> EventMessage? {
        if WireCoding.className(of: line) == ErrorReply.wireClass,
           let e = try? WireCoding.decoder().decode(ErrorReply.self, from: Data(line.utf8)) {
            throw .refused(e.error)
        }
        do { return try EventMessage.decode(line: line) } catch { throw .badReply(error) }
    }
}
