import Foundation
@testable import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 28 (5): a phone's writes keep their author. `hotcold-web` says `act_for` the user who
/// paired the phone; the connection is then that user's — her note, her writer rule now, never
/// the administrator's view — and nobody but a configured proxy may say it.
@Suite(.offCooperativePool, .serialized) struct ActForTests {
    static let banana = "halans:d0577fb8cf"

    /// One connection, lines in order; each reply (skipping events).
    static func session(_ daemon: InProcessDaemon, _ lines: [String]) async throws -> [String] {
        let path = daemon.configuration.socket.path
        return try await InProcessDaemon.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            return try lines.map { line in
                try c.send(line)
                guard let reply = try c.readLine(timeout: 60) else { throw ClientError.closed(path: path, waitingFor: "a reply") }
                return reply
            }
        }
    }

    @Test func aProxysConnectionIsTheUserItActsForInWritesReadsAndTheWriterRule() async throws {
        try #require(UnixAccounts.available, "needs root and useradd")
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let writers = try accounts.group("hcaw")
        let alice = try accounts.user("hcaa", groups: [writers])
        let bob = try accounts.user("hcab")
        let daemon = try InProcessDaemon { c in
            c.socket.allowedGroups = [writers]
            c.socket.proxies = []             // root (this test) is a proxy whatever the list says
        }

        // Alice's phone: acting for her, a note is hers, and her read shows it.
        let a = try await Self.session(daemon, [
            #"{"cmd":"act_for","uid":\#(alice.uid)}"#,
            #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"alice wrote this on her phone"}"#,
            #"{"cmd":"place","id":"\#(Self.banana)"}"#,
            #"{"cmd":"act_for","uid":\#(bob.uid)}"#,
        ])
        let acting = try WireCoding.decode(ActingReply.self, from: a[0])
        #expect(acting == ActingReply(uid: alice.uid, user: alice.name, writer: true))
        #expect(a[1].contains(#""class":"STORE""#), "\(a[1])")
        #expect(a[2].contains("alice wrote this on her phone"), "\(a[2])")
        #expect(a[3].contains(#""code":"not_allowed""#) && a[3].contains("already acts for \(alice.name)"), "\(a[3])")

        // The proxy's own user (root here) has no such note: it was not written as root.
        let root = try await Self.session(daemon, [#"{"cmd":"place","id":"\#(Self.banana)"}"#])
        #expect(!root[0].contains("alice wrote this"), "\(root[0])")

        // Bob is no writer: acting for him, the write is refused in his name, through root.
        let b = try await Self.session(daemon, [
            #"{"cmd":"act_for","uid":\#(bob.uid)}"#,
            #"{"cmd":"store","op":"note","id":"\#(Self.banana)","text":"bob"}"#,
        ])
        #expect(try WireCoding.decode(ActingReply.self, from: b[0]).writer == false)
        #expect(b[1].contains(#""code":"not_allowed""#) && b[1].contains("uid \(bob.uid) (\(bob.name)) (through root)"), "\(b[1])")

        // Root acting for root is root's records only, not the administrator's view of all.
        let rootActing = try await Self.session(daemon, [#"{"cmd":"act_for","uid":0}"#])
        #expect(rootActing[0].contains(#""user":"root""#), "\(rootActing[0])")

        // No such account.
        let ghost = UnixAccounts.unusedUID()
        let g = try await Self.session(daemon, [#"{"cmd":"act_for","uid":\#(ghost)}"#])
        #expect(g[0].contains(#""code":"not_found""#) && g[0].contains("uid \(ghost)"), "\(g[0])")
        await daemon.stop()
    }

    /// Who may act for others: root, the daemon's own user, the configured proxies (by name,
    /// as a dynamic user has a uid only while it runs), never a connection already acting.
    @Test func onlyConfiguredProxiesMayActForOthers() {
        let rule = PeerAuthorisation(proxies: ["hotcold-web", "4242"], ownUID: 999)
        func peer(_ uid: UInt32, _ name: String?, via: String? = nil) -> ClientInfo {
            ClientInfo(id: ClientID(rawValue: 7), pid: 1, uid: uid, gid: uid, userName: name, via: via)
        }
        #expect(rule.mayActForOthers(peer(0, "root")))
        #expect(rule.mayActForOthers(peer(999, "hotcold")))
        #expect(rule.mayActForOthers(peer(61_234, "hotcold-web")))
        #expect(rule.mayActForOthers(peer(4242, nil)))
        #expect(!rule.mayActForOthers(peer(1000, "jane")))
        #expect(!rule.mayActForOthers(peer(1000, nil)))
        #expect(!rule.mayActForOthers(peer(0, "root", via: "hotcold-web")), "an acting connection is no proxy")
        #expect(!DaemonCommands.isAdministrator(peer(0, "root", via: "hotcold-web")))
        #expect(DaemonCommands.isAdministrator(peer(0, "root")))
    }
}
