import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import HotColdUnix
import Testing
@testable import HotColdWeb

@Suite("pairing tokens, the writer rule, rate limits, SSE frames", .offCooperativePool)
struct AccessTests {
    @Test("a pairing survives a restart, is private to its file, expires, and is capped")
    func tokenStore() throws {
        let dir = try TemporaryDirectory("tokens")
        defer { dir.remove() }
        let store = try TokenStore(directory: dir.path("state"), maxDevices: 2)
        let now = BootClock.now()
        let a = try store.pair(name: "phone", uid: 1000, user: "jane", writer: true, days: 1, now: now)
        #expect(a.token.count == 43 && a.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let attrs = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect(attrs[.posixPermissions] as? Int == 0o600)
        let reopened = try TokenStore(directory: dir.path("state"), maxDevices: 2)
        #expect(reopened.device(token: a.token)?.name == "phone")
        #expect(reopened.device(token: a.token, now: BootInstant(boot: now.boot, seconds: now.seconds + 86_401)) == nil, "expired")
        var wrong = Array(a.token)
        wrong[5] = wrong[5] == "A" ? "B" : "A"
        #expect(reopened.device(token: String(wrong)) == nil)
        #expect(reopened.device(token: "") == nil)
        let b = try store.pair(name: "car", uid: 1000, user: "jane", writer: false, days: 1, now: now)
        _ = try store.pair(name: "tablet", uid: 1000, user: "jane", writer: false, days: 1, now: now)
        #expect(store.device(token: a.token) == nil, "the oldest is forgotten past max_devices")
        #expect(store.device(token: b.token) != nil)
        #expect(try store.revoke(name: "car") == 1)
        #expect(store.device(token: b.token) == nil)
    }

    @Test("the daemon's writer rule: root, allowed users, allowed groups by the groups held")
    func writerRule() {
        let rule = WriterRule(allowedUsers: ["root"], allowedGroups: ["hotcold"])
        #expect(rule.isWriter(PeerCredentials(uid: 0, gid: 0, groups: [])))
        #expect(!rule.isWriter(PeerCredentials(uid: 54321, gid: 54321, groups: [])))
        let none = WriterRule(allowedUsers: [], allowedGroups: [])
        #expect(!none.isWriter(PeerCredentials(uid: 54321, gid: 0, groups: [])))
        #expect(WriterRule(allowedUsers: [], allowedGroups: ["root"]).isWriter(PeerCredentials(uid: 54321, gid: 0, groups: [])),
                "gid 0 is the group root")
    }

    @Test("a control socket pairs only users who could read the daemon, and only writers' devices write")
    func controlAnswers() throws {
        let dir = try TemporaryDirectory("control")
        defer { dir.remove() }
        let store = try TokenStore(directory: dir.path("s"), maxDevices: 4)
        // A daemon socket stand-in owned by root:root, mode 0660.
        let sock = dir.path("hc.sock")
        _ = FileManager.default.createFile(atPath: sock, contents: nil)
        chown(sock, 0, 0)
        let c = ControlSocket(path: dir.path("c.sock"), store: store, rule: WriterRule(allowedUsers: [], allowedGroups: ["nogroup-x"]),
                              daemonSocket: sock, tokenDays: 1, baseURL: "http://127.0.0.1:8470")
        let stranger = PeerCredentials(uid: 54321, gid: 54321, groups: [])
        let refused = try #require(c.answer(.pair(name: "x"), peer: stranger) as? ErrorReply)
        #expect(refused.code == .notAllowed && refused.command == "pair")
        let reader = PeerCredentials(uid: 54321, gid: 54321, groups: [0])
        let p = try #require(c.answer(.pair(name: "phone"), peer: reader) as? WebPairedReply)
        #expect(p.writer == false && p.url == "http://127.0.0.1:8470/pair?t=\(p.token)" && !p.qr.isEmpty)
        let root = try #require(c.answer(.pair(name: "car"), peer: PeerCredentials(uid: 0, gid: 0, groups: [])) as? WebPairedReply)
        #expect(root.writer)
        // A name with a newline never reaches the socket's owner: the protocol refuses it, naming the field.
        guard case .failure(let bad) = WebControlRequest.decode(line: #"{"cmd":"pair","name":"a\nb"}"#) else {
            Issue.record("a name with a newline was accepted"); return
        }
        #expect(bad.code == .badField && bad.field == "name")
        #expect((c.answer(.revoke(name: "car"), peer: reader) as? ErrorReply)?.code == .notAllowed, "another user's device")
        let list = try #require(c.answer(.list, peer: reader) as? WebDevicesReply)
        #expect(list.devices.map(\.name) == ["phone"])
    }

    @Test("rate limits: the burst, then refusals, then one more each 1/rate seconds")
    func rateLimiter() {
        let r = RateLimiter(rate: 2, burst: 3, maxKeys: 2)
        let t0 = ContinuousClock.now
        #expect((0..<3).allSatisfy { _ in r.allow("a", now: t0) })
        #expect(!r.allow("a", now: t0))
        #expect(r.allow("b", now: t0), "another client has its own bucket")
        #expect(!r.allow("a", now: t0 + .milliseconds(400)))
        #expect(r.allow("a", now: t0 + .milliseconds(600)))
        #expect(r.refused == 2)
        _ = r.allow("c", now: t0 + .seconds(1))    // the table holds two keys: the oldest goes
        #expect(r.allow("b", now: t0 + .seconds(1)))
    }

    @Test("SSE frames: an event's id is its seq; nothing can break a frame")
    func frames() {
        #expect(SSEFrame.event(seq: 7, name: "ARRIVED", data: #"{"seq":7}"#).text == "id: 7\nevent: ARRIVED\ndata: {\"seq\":7}\n\n")
        #expect(SSEFrame.state(name: "status", data: "a\nid: 9\r\n").text == "event: status\ndata: a id: 9 \n\n")
        #expect(SSEFrame.retry(milliseconds: 1000).text == "retry: 1000\n\n")
    }

    @Test("the page stays well under its 300 KB budget and loads nothing from elsewhere")
    func pageBudget() {
        #expect(PageAssets.totalBytes < 300_000)
        for text in [PageAssets.html, PageAssets.style] + PageAssets.modules.values {
            #expect(!text.contains("https://") && !text.contains("//cdn"))
        }
        #expect(!PageAssets.html.contains("style=") && !PageAssets.html.contains("onclick"), "no inline style or handlers (CSP)")
        print("FIGURES page bytes: \(PageAssets.totalBytes) (html \(PageAssets.html.utf8.count), js \(PageAssets.scriptBytes) in \(PageAssets.modules.count) modules, css \(PageAssets.style.utf8.count))")
    }

    @Test("If-None-Match, as a browser or anyone sends it: its own tag (strong, weak, in a list, or *) matches; 20,000 random headers never trap and never match by accident")
    func ifNoneMatch() {
        let tag = StaticAsset("body", type: "text/plain").etag
        #expect(tag.count == 18 && tag != StaticAsset("body.", type: "text/plain").etag)
        for header in [tag, "W/" + tag, "\"x\", \(tag)", " \(tag) ", "\"x\",W/\(tag)", "*", " * "] {
            #expect(StaticAsset.matches(header, tag), "\(header)")
        }
        for header in ["", ",", "W/", "\"x\"", String(tag.dropLast()), "W/W/" + tag, tag + tag, "**"] {
            #expect(!StaticAsset.matches(header, tag), "\(header)")
        }
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array(" ,\"W/*0123456789abcdef\t\u{00}é") + Array(tag)
        for _ in 0..<20_000 {
            let header = String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            let items = header.split(separator: ",").map { $0.trimmingBlanks() }
            let expected = items.contains { $0 == "*" || $0 == tag[...] || $0 == ("W/" + tag)[...] }
            #expect(StaticAsset.matches(header, tag) == expected, "\(header)")
        }
    }
}
