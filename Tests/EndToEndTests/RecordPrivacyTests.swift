import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 28: a user's note and rating (a RECORD event) reach only that user's clients and the
/// daemon's administrator — not every watcher of the socket, live or replayed from the log.
/// Real Unix users (a writer and a read-only one) on a real daemon.
@Suite(.offCooperativePool) struct RecordPrivacyTests {
    static let banana = "halans:d0577fb8cf"
    static let merino = "halans:f1ef8210c4"

    @Test func anotherUsersRecordsAreNotSentToAWatcher() throws {
        try #require(UnixAccounts.available, "needs root, the shadow tools, setpriv and python3")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcpa"), bob = try accounts.user("hcpb")
        let bounds = DaemonBoundsTests()
        let (d, config) = try bounds.daemon(writers: [alice.name])
        defer { d.stop(); config.remove() }

        let bobLive = try ForeignClient(uid: bob.uid, gid: bob.gid, arguments: ["watch", d.socketPath, "RECORD,QUEUED"])
        defer { bobLive.finish() }
        let aliceLive = try ForeignClient(uid: alice.uid, gid: alice.gid, arguments: ["watch", d.socketPath, "RECORD"])
        defer { aliceLive.finish() }
        for c in [bobLive, aliceLive] { #expect(c.readObject(timeout: 30)?["class"] as? String == "WATCH") }
        let admin = try d.connect()
        _ = try admin.read(class: "VERSION")
        try admin.send(#"{"cmd":"watch","classes":["RECORD"]}"#)
        _ = try admin.read(class: "WATCH")

        // Alice rates and notes the Big Banana.
        let rated = try bounds.ask(d, alice, [#"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"alice's secret"}"#])
        #expect(rated.first?.0["class"] as? String == "STORE", "\(rated)")
        let seen = try admin.read(class: "RECORD", timeout: 30)
        #expect(seen["user"] as? String == alice.name, "the administrator sees every user's records")
        let recordSeq = try #require(seen["seq"] as? Int)
        let own = try #require(aliceLive.readObject(timeout: 30))
        #expect(own["class"] as? String == "RECORD" && own["note"] as? String == "alice's secret", "\(own)")

        // The administrator rates another place: its QUEUED comes after alice's RECORD, so once bob
        // has it, anything of alice's he was sent would have come first.
        try admin.send(#"{"cmd":"store","op":"rate","id":"\#(Self.merino)","stars":3}"#)
        var bobSaw: [[String: Any]] = []
        while let o = bobLive.readObject(timeout: 30) {
            bobSaw.append(o)
            if o["class"] as? String == "QUEUED", (o["seq"] as? Int ?? 0) > recordSeq { break }
        }
        #expect(bobSaw.contains { $0["class"] as? String == "QUEUED" }, "bob's watch heard nothing: \(bobSaw)")
        #expect(!bobSaw.contains { $0["class"] as? String == "RECORD" && $0["user"] as? String == alice.name }, "\(bobSaw)")
        #expect(!bobSaw.contains { ($0["note"] as? String) == "alice's secret" }, "\(bobSaw)")

        // Replayed from the log: the same rule.
        let replay = try ForeignClient(uid: bob.uid, gid: bob.gid, arguments: ["watch", d.socketPath, "RECORD,QUEUED", "0"])
        defer { replay.finish() }
        let reply = try #require(replay.readObject(timeout: 30))
        let count = reply["replay"] as? Int ?? 0
        var replayed: [[String: Any]] = []
        for _ in 0..<count { if let o = replay.readObject(timeout: 30) { replayed.append(o) } }
        #expect(replayed.count == count && count >= 1, "\(reply) \(replayed)")
        #expect(!replayed.contains { $0["class"] as? String == "RECORD" && $0["user"] as? String == alice.name }, "\(replayed)")
    }
}
