import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// A rating or note a user makes becomes one of this car's own feed items; it stays that
/// user's: `feed` (and `feed` with `world`) lists it to its user and to the daemon's
/// administrator only — never to another local user, nor to a phone acting for one (the path
/// `POST /api/read {"cmd":"feed"}` takes through hotcold-web). The car's arrivals stay
/// everyone's, as their ARRIVED is. Real Unix users on a real daemon.
@Suite(.offCooperativePool) struct FeedPrivacyTests {
    static let banana = "halans:d0577fb8cf"
    static let merino = "halans:f1ef8210c4"

    static func items(_ reply: [String: Any]) -> [[String: Any]] { reply["items"] as? [[String: Any]] ?? [] }
    static func notes(_ reply: [String: Any]) -> [String] { items(reply).compactMap { $0["note"] as? String } }

    @Test func anOwnRecordIsListedToItsUserAndTheAdministratorOnly() throws {
        try #require(UnixAccounts.available, "needs root, the shadow tools, setpriv and python3")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcfa"), bob = try accounts.user("hcfb")
        let bounds = DaemonBoundsTests()
        let (d, config) = try bounds.daemon(writers: [alice.name])
        defer { d.stop(); config.remove() }

        // Root (the administrator) notes one place, alice another.
        let root = try d.connect()
        _ = try root.read(class: "VERSION")
        try root.send(#"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"ROOT-PRIVATE: the key is under the mat"}"#)
        _ = try root.read(class: "STORE")
        let aliceNoted = try bounds.ask(d, alice, [#"{"cmd":"store","op":"note","id":"\#(Self.merino)","text":"ALICE-PRIVATE"}"#])
        #expect(aliceNoted.first?.0["class"] as? String == "STORE", "\(aliceNoted)")

        // The own items are written off the publisher's path: the administrator sees both once they are.
        var adminSees: [String] = []
        for _ in 0..<600 {
            try root.send(#"{"cmd":"feed","world":true}"#)
            adminSees = Self.notes(try root.read(class: "FEED"))
            if adminSees.count >= 2 { break }
            usleep(50_000)
        }
        #expect(Set(adminSees) == ["ROOT-PRIVATE: the key is under the mat", "ALICE-PRIVATE"], "\(adminSees)")

        // Bob, on his own connection: neither note, in his feed or the world's.
        let bobs = try bounds.ask(d, bob, [#"{"cmd":"feed"}"#, #"{"cmd":"feed","world":true}"#]).map(\.0)
        for reply in bobs {
            #expect(reply["class"] as? String == "FEED", "\(reply)")
            #expect(!Self.items(reply).contains { $0["kind"] as? String == "record" }, "another user's records: \(reply)")
        }
        // Alice: her own note, not root's.
        let alices = try bounds.ask(d, alice, [#"{"cmd":"feed"}"#, #"{"cmd":"feed","world":true}"#]).map(\.0)
        for reply in alices {
            #expect(Self.notes(reply) == ["ALICE-PRIVATE"], "\(reply)")
            #expect(Self.items(reply).first?["own"] as? Bool == true, "\(reply)")
        }

        // A phone paired by bob: hotcold-web's connection acts for him.
        let phone = try d.connect()
        _ = try phone.read(class: "VERSION")
        try phone.send(#"{"cmd":"act_for","uid":\#(bob.uid)}"#)
        _ = try phone.read(class: "ACTING")
        for line in [#"{"cmd":"feed"}"#, #"{"cmd":"feed","world":true}"#] {
            try phone.send(line)
            let reply = try phone.read(class: "FEED")
            #expect(Self.notes(reply).isEmpty, "a phone acting for bob: \(reply)")
        }
    }
}
