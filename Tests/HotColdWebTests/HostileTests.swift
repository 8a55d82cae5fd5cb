import Foundation
import HotColdTestSupport
import Synchronization
import HotColdDaemonTesting
import HotColdUnix
import Testing
@testable import HotColdWeb
import HotColdProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, the live page: what a stranger on the Wi-Fi, a flaky phone and a website in a
/// browser on the box tried, on hotcold-web in-process on a real port against a real hotcoldd.
@Suite("hotcold-web against hostile and careless clients", .offCooperativePool, .serialized)
struct HostileTests {
    typealias Running = WebServerTests.Running

    /// Waits for `condition` (polling), up to `seconds`; true when it held.
    static func wait(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test("connections reset right after GET /events give their slot back: 40 resets, then a browser still gets 200")
    func slotsComeBack() async throws {
        let r = try await Running(maxClients: 4)
        defer { r.stop() }
        for _ in 0..<40 {
            try await onThread {
                let fd = try Sockets.connect(port: r.port)
                Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\n\r\n")
                Sockets.reset(fd)    // RST at once: the response head's write fails
            }
        }
        #expect(try await Self.wait(60) { r.server.slots.inUse == 0 }, "slots in use after 40 resets: \(r.server.slots.inUse)")
        let live = try await RawHTTP.get(r.port, "/events", seconds: 30) { $0.contains("event: status") }
        #expect(live.status == 200 && live.body.contains("event: status"))
        // Noticed at the stream's next write (a STATUS a quarter second on): generous for a loaded machine.
        #expect(try await Self.wait(60) { r.server.slots.inUse == 0 }, "the closed stream gave its slot back")
    }

    @Test("one paired device holds live.max_per_device streams at most; another device still follows")
    func perDevice() async throws {
        // Its streams are never read: kept past the 8 s after which such a stream is cut (LiveStallTests).
        let r = try await Running(maxClients: 16, readSeconds: 300)
        defer { r.stop() }
        let hog = try r.server.store.pair(name: "hog", uid: 0, user: "root", writer: true, days: 1)
        let other = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let key = "device:" + hog.token
        // Streams that are never read: opened, then left alone.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<r.server.config.live.maxPerDevice {
            let fd = try Sockets.connect(port: r.port)
            Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\nCookie: hc_token=\(hog.token)\r\n\r\n")
            held.append(fd)
        }
        let n = r.server.config.live.maxPerDevice
        #expect(try await Self.wait(10) { r.server.slots.inUse(device: key) == n })
        let fifth = try await RawHTTP.get(r.port, "/events", headers: ["Cookie: hc_token=\(hog.token)"], seconds: 30)
        #expect(fifth.status == 503 && fifth.body.contains("max_per_device"), "\(fifth.status) \(fifth.body)")
        let phone = try await RawHTTP.get(r.port, "/events", headers: ["Cookie: hc_token=\(other.token)"], seconds: 30) {
            $0.contains("event: status")
        }
        #expect(phone.status == 200 && phone.body.contains("event: status"), "another device follows: \(phone.status)")
    }

    @Test("Last-Event-ID past the daemon's last number, or past 2^53: a gap notice, then a fresh start with events")
    func beyondTheEnd() async throws {
        let r = try await Running()
        defer { r.stop() }
        // The daemon's first events (its GPS state) are logged as it starts: wait for them.
        func seqs() -> [Int] {
            r.daemon.logLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .compactMap { $0["seq"] as? Int }
        }
        #expect(try await Self.wait(30) { !seqs().isEmpty })
        let last = try #require(seqs().last, "the daemon logged no event")
        for asked in ["\(last + 1000)", "\(UInt64(1) << 60)"] {
            let s = try await RawHTTP.get(r.port, "/events", headers: ["Last-Event-ID: \(asked)"], seconds: 30) {
                $0.contains("id: \(last)\n")
            }
            #expect(s.status == 200)
            #expect(s.body.contains("event: gap\ndata: {\"asked\":\"\(asked)\",\"beyond_end\":true,\"last\":\(last)}"), "\(s.body.prefix(400))")
            #expect(s.body.contains("id: \(last)\n"), "the stream starts afresh from the log after Last-Event-ID \(asked)")
        }
    }

    @Test("Host: a name not configured is refused (421) for reads, the stream and writes; configured names and addresses pass")
    func hostChecked() async throws {
        let r = try await Running(hosts: ["hotcold.local"])
        defer { r.stop() }
        let d = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let cookie = "Cookie: hc_token=\(d.token)"
        func get(_ path: String, host: String, _ headers: [String] = []) async throws -> RawHTTP.Reply {
            try await RawHTTP.send(port: r.port, "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined()
                                   + "Connection: close\r\n\r\n", seconds: 30) { $0.contains("event: status") }
        }
        for host in ["evil.example:\(r.port)", "evil.example", "127.0.0.1.evil.example:\(r.port)", "10.9.9.9:\(r.port)"] {
            #expect(try await get("/", host: host, [cookie]).status == 421, "\(host)")
            #expect(try await get("/session", host: host, [cookie]).status == 421, "\(host)")
            #expect(try await get("/events", host: host, [cookie]).status == 421, "\(host)")
        }
        let body = #"{"cmd":"roam","radius_m":1000}"#
        let write = try await RawHTTP.send(port: r.port,
            "POST /api/command HTTP/1.1\r\nHost: evil.example:\(r.port)\r\nOrigin: http://evil.example:\(r.port)\r\n\(cookie)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        #expect(write.status == 421, "a rebound write: \(write.status)")
        let noHost = try await RawHTTP.send(port: r.port, "GET /session HTTP/1.0\r\n\(cookie)\r\n\r\n")
        #expect(noHost.status == 421 || noHost.status == 400, "no Host at all: \(noHost.status)")
        for host in ["127.0.0.1:\(r.port)", "localhost:\(r.port)", "LOCALHOST", "hotcold.local:\(r.port)", "[::1]:\(r.port)"] {
            #expect(try await get("/session", host: host, [cookie]).status == 200, "\(host)")
        }
        #expect(try await get("/events", host: "localhost:\(r.port)", [cookie]).status == 200)
    }

    @Test("a pairing link works once and expires within minutes; the cookie is a session token of its own")
    func linkOnce() async throws {
        let r = try await Running()
        defer { r.stop() }
        let d = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10)
        let link = try #require(d.link)
        let first = try await RawHTTP.get(r.port, "/pair?t=\(link)")
        #expect(first.status == 303)
        let setCookie = try #require(first.headers["set-cookie"])
        #expect(!setCookie.contains(link), "the session is not the link")
        let session = String(setCookie.dropFirst("hc_token=".count).prefix { $0 != ";" })
        #expect(session.count == 43 && session != d.token, "a fresh session token at the link's opening")
        let again = try await RawHTTP.get(r.port, "/pair?t=\(link)")
        #expect(again.status == 403 && again.headers["set-cookie"] == nil, "the link works once")
        #expect(try await RawHTTP.get(r.port, "/session", headers: ["Cookie: hc_token=\(link)"]).body.contains(#""access":"local""#),
                "the link is no credential")
        let s = try await RawHTTP.get(r.port, "/session", headers: ["Cookie: hc_token=\(session)"])
        #expect(s.body.contains(#""access":"paired""#), "\(s.body)")
        // Revocable: revoking the device ends the session.
        #expect(try r.server.store.revoke(name: "phone") == 1)
        #expect(try await RawHTTP.get(r.port, "/session", headers: ["Cookie: hc_token=\(session)"]).body.contains(#""access":"local""#))
        // Expired: a link made 11 minutes ago.
        let old = try r.server.store.pair(name: "late", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10,
                                          now: BootInstant(boot: BootClock.bootID, seconds: BootClock.seconds() - 11 * 60))
        #expect(try await RawHTTP.get(r.port, "/pair?t=\(try #require(old.link))").status == 403, "an expired link")
    }

    @Test("a phone's note is kept as the note of the user who paired it, not hotcold-web's own user's")
    func writesKeepTheirAuthor() async throws {
        let phone = try await NobodysPhone("author")
        defer { phone.stop() }
        let (r, nobody, headers) = (phone.running, phone.uid, phone.headers)
        let note = #"{"cmd":"store","op":"note","id":"halans:d0577fb8cf","text":"typed on nobody's phone"}"#
        let ok = try await RawHTTP.post(r.port, "/api/command", body: note, headers: headers)
        #expect(ok.status == 200, "\(ok.body)")
        // The phone's own read shows it: the page reads as its user too.
        let read = try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"place","id":"halans:d0577fb8cf"}"#, headers: headers)
        #expect(read.status == 200 && read.body.contains("typed on nobody's phone"), "\(read.status) \(read.body)")
        // Kept for nobody: hotcold-web's own user (root here) has no such note.
        let c = try LineClient(path: r.daemon.socketPath)
        try c.send(.place(PlaceRequest(id: "halans:d0577fb8cf")))
        #expect(!(try c.line(ofClass: "PLACE")).contains("typed on nobody's phone"))
        try c.send(.actFor(ActForRequest(uid: nobody)))
        _ = try c.line(ofClass: ActingReply.wireClass)
        try c.send(.place(PlaceRequest(id: "halans:d0577fb8cf")))
        #expect(try c.line(ofClass: "PLACE").contains("typed on nobody's phone"))
        // A submission with a photo (its own upload connection) is nobody's too.
        let submit = #"{"cmd":"submit","name":"Big Nobody","lat":-35.28,"lon":149.13,"seen_at":"2026-11-25T10:00:00Z"}"#
        let path = "/api/submit-photo?submit=" + submit.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&filename=n.jpg"
        // A WebP's signature (ASCII, so the text body carries it) and filler: its content is checked.
        let webp = "RIFF\u{0}\u{0}\u{0}\u{0}WEBP" + String(repeating: "n", count: 4988)
        let sent = try await RawHTTP.post(r.port, path, body: webp, headers: ["Content-Type: image/webp"] + headers.dropFirst())
        #expect(sent.status == 200, "\(sent.status) \(sent.body)")
        // This connection acts for nobody: its outbox is nobody's own, and holds the submission.
        try c.send(.outbox)
        let mine = try c.line(ofClass: "OUTBOX")
        #expect(mine.contains("Big Nobody"), "\(mine.prefix(400))")
    }

    @Test("the writer rule is checked at each write: a user taken out of the writers stops writing through a phone paired earlier")
    func writerEachWrite() async throws {
        let phone = try await NobodysPhone("rule")
        defer { phone.stop() }
        let (r, config, headers) = (phone.running, phone.config, phone.headers)
        let body = #"{"cmd":"hunt","targets":["-30.2748,153.1338,Web Banana"]}"#
        let ok = try await RawHTTP.post(r.port, "/api/command", body: body, headers: headers)
        #expect(ok.status == 200, "nobody is a writer by the rule: \(ok.body)")
        try #"[socket]\#nallowed_users = []\#nallowed_groups = []\#n"#.write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try await RawHTTP.post(r.port, "/api/command", body: body, headers: headers)
        #expect(refused.status == 403 && refused.body.contains("may not write"), "\(refused.status) \(refused.body)")
        #expect(try await RawHTTP.get(r.port, "/session", headers: [headers[1]]).body.contains(#""writer":false"#))
    }
}

/// A daemon whose rule makes `nobody` a writer (its own configuration file, which hotcold-web
/// re-reads at each write), hotcold-web before it, and a phone paired by `nobody`: the
/// headers its writes carry.
struct NobodysPhone {
    let dir: TemporaryDirectory
    let config: String
    let running: WebServerTests.Running
    let uid: UInt32
    let headers: [String]

    init(_ name: String) async throws {
        dir = try TemporaryDirectory(name)
        config = dir.path("hotcoldd.toml")
        try #"[socket]\#nallowed_users = ["nobody"]\#nallowed_groups = []\#n"#.write(toFile: config, atomically: false, encoding: .utf8)
        running = try await WebServerTests.Running(daemonConfig: config)
        uid = try #require(getpwnam("nobody")).pointee.pw_uid
        let d = try running.server.store.pair(name: "phone", uid: uid, user: "nobody", writer: true, days: 1)
        headers = ["Content-Type: application/json", "Cookie: hc_token=\(d.token)", "Origin: http://127.0.0.1:\(running.port)"]
    }

    func stop() {
        running.stop()
        dir.remove()
    }
}

/// Raw client sockets for hostile connections.
enum Sockets {
    static func connect(port: Int, host: String = "127.0.0.1", from source: String? = nil, blocking: Bool = true) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let rc = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else { close(fd); throw TestFailure("bind \(source): \(String(cString: strerror(errno)))") }
        }
        if !blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr(host)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 || (!blocking && errno == EINPROGRESS) else {
            close(fd)
            throw TestFailure("connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `done` holds for what has arrived, the peer closes, or `seconds` pass:
    /// what arrived, and whether the peer closed.
    static func read(_ fd: Int32, seconds: Double, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var got: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (String(decoding: got, as: UTF8.self), true) }
            got += buffer[0..<n]
            if done(String(decoding: got, as: UTF8.self)) { break }
        }
        return (String(decoding: got, as: UTF8.self), false)
    }

    /// Closes with a reset (SO_LINGER 0): the peer's next write fails.
    static func reset(_ fd: Int32) {
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }
}

/// The in-process server's stop with connections the kernel has accepted and the server has not
/// yet taken: stopped as SIGTERM stops it, it serves or closes them all and the process lives on.
@Suite("hotcold-web stops cleanly", .offCooperativePool, .serialized)
struct StopTests {
    @Test("stopping with 300 connections just opened (some mid-request) neither traps nor hangs")
    func stopUnderConnections() async throws {
        for _ in 0..<5 {
            let r = try await WebServerTests.Running(maxClients: 4)
            var fds: [Int32] = []
            for i in 0..<300 {
                guard let fd = try? Sockets.connect(port: r.port) else { continue }
                if i % 2 == 0 { Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\n\r\n") }
                fds.append(fd)
            }
            r.stop()
            fds.forEach { close($0) }
            #expect(fds.count > 0)
        }
    }
}
