import Foundation
import HotColdCore
@testable import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Words typed on someone's phone reach the administrator's terminal only as text: a Big
/// Thing's name and an observation's title and description holding escape sequences (a title
/// change, a screen clear, a colour, a C1 CSI, a right-to-left override) are printed escaped
/// by `hotcold outbox`, `observations` and `watch`, and `--json` stays JSON that reads back to
/// the very same strings. The real `hotcold` against the daemon in process; a real user's
/// phone (hotcold-web's `act_for`).
@Suite(.offCooperativePool) struct TerminalEscapesTests {
    static let name = "Big\u{1B}]0;owned\u{07}Wombat\u{1B}[2J"
    static let title = "Cocka\u{1B}[31mtoo\u{9B}2J"
    static let description = "seen \u{202E}tsew flying"
    static let note = "great\u{1B}[1A\u{1B}[Kcoffee"
    /// What a terminal would act on: none of these may reach it.
    static let forbidden: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"]

    static func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args, environment: ["HOTCOLD_DB": "/nonexistent/should-not-be-used.sqlite"])
    }

    static func raw(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.filter { forbidden.contains($0) } }

    /// `value` as a JSON string literal's contents (the wire's escapes).
    static func json(_ value: String) -> String {
        let quoted = String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
        return String(quoted.dropFirst().dropLast())
    }

    @Test func aPhonesNameTitleAndNoteArePrintedEscapedAndJSONStaysJSON() async throws {
        try #require(UnixAccounts.available, "needs root, the shadow tools, setpriv and python3")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let writers = try accounts.group("hctw")
        let alice = try accounts.user("hcta", groups: [writers])
        let daemon = try InProcessDaemon { c in c.socket.allowedGroups = [writers] }
        let socket = daemon.configuration.socket.path

        // Alice's phone, through hotcold-web: a Big Thing to submit and an observation.
        let phone = try daemon.connect()
        try phone.send(#"{"cmd":"act_for","uid":\#(alice.uid)}"#)
        _ = try phone.line(ofClass: ActingReply.wireClass)
        try phone.send(#"{"cmd":"submit","name":"\#(Self.json(Self.name))","lat":-30.3,"lon":153.1,"seen_at":"2024-03-01T07:30:00Z"}"#)
        let submitted = try phone.readLine(timeout: 60) ?? ""
        #expect(!submitted.contains(#""class":"ERROR""#), "\(submitted)")
        try phone.send(#"{"cmd":"store","op":"observe","classification":"bird","title":"\#(Self.json(Self.title))","description":"\#(Self.json(Self.description))","date":"2024-03-01T07:30:00Z"}"#)
        let observed = try phone.readLine(timeout: 60) ?? ""
        #expect(observed.contains(#""class":"STORE""#), "\(observed)")

        // Root (who sees everyone's) lists them.
        let outbox = try Self.hotcold(["outbox", "--socket", socket])
        #expect(outbox.status == 0, "\(outbox.stderr)")
        #expect(Self.raw(outbox.stdout).isEmpty, "raw control characters: \(outbox.stdout.debugDescription)")
        #expect(outbox.stdout.contains(#"Big\e]0;owned\u{7}Wombat\e[2J"#), "\(outbox.stdout.debugDescription)")

        let observations = try Self.hotcold(["observations", "--socket", socket])
        #expect(observations.status == 0, "\(observations.stderr)")
        #expect(Self.raw(observations.stdout).isEmpty, "raw control characters: \(observations.stdout.debugDescription)")
        #expect(observations.stdout.contains(#"Cocka\e[31mtoo\u{9B}2J — seen \u{202E}tsew flying"#), "\(observations.stdout.debugDescription)")

        // --json: JSON a parser reads back to the same strings, nothing raw for a terminal.
        for (args, key, expected) in [(["outbox"], "name", Self.name), (["observations"], "title", Self.title),
                                      (["observations"], "description", Self.description)] {
            let r = try Self.hotcold(args + ["--socket", socket, "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Self.raw(r.stdout).isEmpty, "raw control characters in \(args) --json: \(r.stdout.debugDescription)")
            let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
            #expect(list?.contains { $0[key] as? String == expected } == true, "\(r.stdout)")
        }

        // watch: Alice's note (a RECORD) as the watching administrator's terminal gets it.
        let dir = try TemporaryDirectory("terminal-watch")
        defer { dir.remove() }
        let watched = dir.path("watch.out")
        let watch = try SpawnedProcess([Binaries.url("hotcold").path, "watch", "--socket", socket, "--class", "RECORD", "--count", "1"],
                                       stdout: watched, stderr: dir.path("watch.err"))
        defer { watch.terminate() }
        // The watch may not have subscribed yet: note again until it has printed one and ended.
        let deadline = Date().addingTimeInterval(60)
        while watch.isRunning, Date() < deadline {
            try phone.send(#"{"cmd":"store","op":"note","id":"halans:d0577fb8cf","text":"\#(Self.json(Self.note))"}"#)
            _ = try phone.line(ofClass: "STORE", timeout: 60)
            _ = watch.wait(timeout: 0.3)
        }
        let line = (try? String(contentsOfFile: watched, encoding: .utf8)) ?? ""
        #expect(Self.raw(line).isEmpty, "raw control characters: \(line.debugDescription)")
        #expect(line.contains(#"'great\e[1A\e[Kcoffee'"#), "\(line.debugDescription)")
        await daemon.stop()
    }

    /// `watch` on a terminal paints with colours of its own; a name it paints in is escaped,
    /// and a friend's line (not painted) is escaped whole. Run on a pseudo-terminal (script).
    @Test func watchOnATerminalPaintsItsOwnColoursAndEscapesTheNames() async throws {
        let daemon = try InProcessDaemon()
        let socket = daemon.configuration.socket.path
        let dir = try TemporaryDirectory("terminal-watch-tty")
        defer { dir.remove() }
        let watched = dir.path("watch.out")
        let command = "\(Binaries.url("hotcold").path) watch --socket \(socket) --class ARRIVED --class RECORD --count 2"
        let watch = try SpawnedProcess(["/usr/bin/script", "-qfec", command, "/dev/null"], stdout: watched, stderr: dir.path("watch.err"))
        defer { watch.terminate() }
        // Until the watch has both (it may not have subscribed yet): an arrival at a place
        // whose name is hostile, and a user's note.
        let place = TargetRef(id: "evil", name: Self.name, kind: .bigThing)
        let record = RecordEvent(time: Date(), user: "mallory", place: .init(id: "evil", name: "Evil", kind: "bigthing"), note: Self.note)
        let deadline = Date().addingTimeInterval(60)
        while watch.isRunning, Date() < deadline {
            daemon.parts.host.announce(.engine(.arrived(.init(time: Date(), target: place, distance: 12))))
            daemon.parts.host.announce(.record(record))
            _ = watch.wait(timeout: 0.3)
        }
        let out = (try? String(contentsOfFile: watched, encoding: .utf8)) ?? ""
        // The program's own paint, around the name made safe.
        #expect(out.contains("\u{1B}[1;7;31m") && out.contains(#"ARRIVED at Big\e]0;owned\u{7}Wombat\e[2J (12 m)"#), "\(out.debugDescription)")
        #expect(out.contains(#"'great\e[1A\e[Kcoffee'"#), "\(out.debugDescription)")
        // Nothing else a terminal would act on: the only escapes are the colours' SGR.
        let unpainted = out.replacingOccurrences(of: "\u{1B}[1;7;31m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(Self.raw(unpainted).isEmpty, "\(out.debugDescription)")
        await daemon.stop()
    }
}
