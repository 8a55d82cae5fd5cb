import Foundation
@testable import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `act_for` applies to what the connection already has: a `watch` sent before it (as root,
/// who may see every user's RECORD) is narrowed to what the user it now acts for may see.
/// Two real Unix users, the daemon in process, its real socket.
@Suite(.offCooperativePool) struct ActForWatchTests {
    static let banana = "halans:d0577fb8cf"

    /// One request on a connection of its own acting for `uid`; the reply to the last line.
    static func asUser(_ daemon: InProcessDaemon, _ uid: UInt32, _ line: String) async throws -> String {
        let path = daemon.configuration.socket.path
        return try await InProcessDaemon.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            try c.send(#"{"cmd":"act_for","uid":\#(uid)}"#)
            _ = try c.line(ofClass: ActingReply.wireClass)
            try c.send(line)
            guard let reply = try c.readLine(timeout: 60) else { throw ClientError.closed(path: path, waitingFor: "a reply") }
            return reply
        }
    }

    @Test func aWatchSentBeforeActForNoLongerGetsAnotherUsersRecord() async throws {
        try #require(UnixAccounts.available, "needs root and useradd")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let writers = try accounts.group("hcww")
        let alice = try accounts.user("hcwa", groups: [writers])
        let bob = try accounts.user("hcwb", groups: [writers])
        let daemon = try InProcessDaemon { c in c.socket.allowedGroups = [writers] }

        // Root's connection watches RECORDs (as root it may see everyone's), then acts for Alice.
        let watcher = try daemon.connect()
        try watcher.send(#"{"cmd":"watch","enable":true,"classes":["RECORD"]}"#)
        _ = try watcher.line(ofClass: WatchReply.wireClass)
        // Control: before act_for, root's watch does get Bob's record.
        #expect(try await Self.asUser(daemon, bob.uid, #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"BOB-BEFORE"}"#)
            .contains(#""class":"STORE""#))
        let before = try await InProcessDaemon.onThread { try watcher.line(ofClass: RecordEvent.wireClass, timeout: 30) }
        #expect(before.contains("BOB-BEFORE"))

        try watcher.send(#"{"cmd":"act_for","uid":\#(alice.uid)}"#)
        _ = try await InProcessDaemon.onThread { try watcher.line(ofClass: ActingReply.wireClass, timeout: 30) }

        // Bob's private note, then Alice's own: RECORDs come in order, so once Alice's has come,
        // Bob's would have come before it.
        #expect(try await Self.asUser(daemon, bob.uid, #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"BOB-PRIVATE"}"#)
            .contains(#""class":"STORE""#))
        #expect(try await Self.asUser(daemon, alice.uid, #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"ALICE-OWN"}"#)
            .contains(#""class":"STORE""#))
        let seen = try await InProcessDaemon.onThread { () throws -> [String] in
            var lines: [String] = []
            while let line = try watcher.readLine(timeout: 30) {
                lines.append(line)
                if line.contains("ALICE-OWN") { break }
            }
            return lines
        }
        #expect(seen.contains { $0.contains("ALICE-OWN") }, "\(seen)")
        #expect(!seen.contains { $0.contains("BOB-PRIVATE") }, "Bob's record reached the connection acting for Alice: \(seen)")

        // A replay from the log on the same connection is hers too: Bob's notes stay out.
        try watcher.send(#"{"cmd":"watch","enable":true,"classes":["RECORD"],"since":0}"#)
        let replayed = try await InProcessDaemon.onThread { () throws -> [String] in
            let reply = try WireCoding.decode(WatchReply.self, from: try watcher.line(ofClass: WatchReply.wireClass, timeout: 30))
            return try (0..<(reply.replay ?? 0)).compactMap { _ in try watcher.readLine(timeout: 30) }
        }
        #expect(replayed.contains { $0.contains("ALICE-OWN") } && !replayed.contains { $0.contains("BOB") }, "\(replayed)")
        await daemon.stop()
    }

    /// The same while a `watch` with `since` is still replaying the log: what is sent after
    /// the `act_for` reply is the account's, never another user's logged RECORD.
    @Test func aReplayRunningWhenActForComesIsNarrowedToo() async throws {
        try #require(UnixAccounts.available, "needs root and useradd")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcra"), bob = try accounts.user("hcrb")
        let dir = try TemporaryDirectory("act-for-replay")
        defer { dir.remove() }
        // A log of 12 MB of RECORDs, Bob's odd, Alice's even: long enough to be mid-replay.
        let count = 15_000
        let padding = String(repeating: "x", count: 700)
        var log = ""
        for seq in 1...count {
            let user = seq % 2 == 1 ? bob.name : alice.name
            let record = RecordEvent(time: Date(), user: user, place: .init(id: Self.banana, name: "Big Banana", kind: "bigthing"),
                                     note: "\(seq % 2 == 1 ? "BOB" : "ALICE")-\(seq) \(padding)")
            log += PublishedEvent.record(record).line(seq: seq) + "\n"
        }
        try log.write(toFile: dir.path("events.jsonl"), atomically: false, encoding: .utf8)
        let daemon = try InProcessDaemon(directory: dir)
        let watcher = try daemon.connect()

        // Root reads everything as it comes, on a thread of its own.
        let reading = Task {
            try await InProcessDaemon.onThread { () throws -> [String] in
                var lines: [String] = []
                while let line = try watcher.readLine(timeout: 60) {
                    lines.append(line)
                    if line.contains(#""seq":\#(count),"#) { break }
                }
                return lines
            }
        }
        try watcher.send(#"{"cmd":"watch","enable":true,"classes":["RECORD"],"since":0}"#)
        let publisher = try #require(daemon.parts.host.publisher)
        let deadline = ContinuousClock.now + .seconds(30)
        while publisher.catchingUp == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        try watcher.send(#"{"cmd":"act_for","uid":\#(alice.uid)}"#)
        let lines = try await reading.value

        let acting = try #require(lines.firstIndex { $0.contains(#""class":"ACTING""#) }, "no ACTING reply among \(lines.count) lines")
        // The WATCH reply may come after ACTING: the log was still being read.
        let after = lines[(acting + 1)...].filter { $0.contains(#""class":"RECORD""#) }
        #expect(!after.isEmpty, "the replay ended before act_for came: the log is too short to test this")
        #expect(after.allSatisfy { $0.contains("\"note\":\"ALICE-") }, "another user's RECORD after act_for: \(after.first { !$0.contains("ALICE-") } ?? "")")
        await daemon.stop()
    }
}
