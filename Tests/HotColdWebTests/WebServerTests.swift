import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

/// hotcold-web in-process on a real loopback port, against a real hotcoldd (no GPS attached:
/// it still answers STATUS and takes writes).
@Suite("hotcold-web over HTTP against a real daemon", .offCooperativePool, .serialized)
struct WebServerTests {
    final class Running: @unchecked Sendable {
        let daemon: DaemonProcess
        let dir: TemporaryDirectory
        let server: WebServer
        let web: InProcessWebServer
        var port: Int { web.port }

        /// `readSeconds`: how long a live stream lasts without its reader saying it reads (a test
        /// that holds streams it never reads on purpose, for longer than that, raises it).
        /// `rate`: requests a second from one address and the burst (the configuration's
        /// defaults when nil); a test of the limit sets one a loaded machine cannot outrun.
        init(maxClients: Int = 16, hosts: [String] = [], daemonConfig: String? = nil, readSeconds: Double = 8,
             rate: (perSecond: Double, burst: Int)? = nil) async throws {
            // The daemon reads the same configuration hotcold-web checks writers against.
            daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Web Banana"]
                                       + (daemonConfig.map { ["--config", $0] } ?? []))
            dir = try TemporaryDirectory("web")
            var c = WebConfiguration()
            c.daemon.socket = daemon.socketPath
            c.listen.port = 0
            c.live.maxClients = maxClients
            c.live.readSeconds = readSeconds
            c.listen.hosts = hosts
            if let rate {
                c.access.requestsPerSecond = rate.perSecond
                c.access.requestBurst = rate.burst
            }
            c.daemon.config = daemonConfig ?? "/nonexistent/hotcoldd.toml"
            c.access.stateDirectory = dir.path("state")
            server = WebServer(config: c, store: try TokenStore(directory: dir.path("state"), maxDevices: 4))
            web = try await InProcessWebServer(server)
        }

        func stop() {
            web.stop()
            daemon.stop()
            dir.remove()
        }
    }

    @Test("the page from this machine: strict CSP and the usual hardening headers, the assets it names")
    func pageAndHeaders() async throws {
        let r = try await Running()
        defer { r.stop() }
        let page = try await RawHTTP.get(r.port, "/")
        #expect(page.status == 200)
        let csp = try #require(page.headers["content-security-policy"])
        for part in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            #expect(csp.contains(part))
        }
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.body.contains(#"<script type="module" src="/js/main.js"></script>"#))
        // Every module of the script, as the binary holds it, with the page's own headers; any
        // other name under /js/ (and the old single script) is not found.
        #expect(PageAssets.modules.count > 10 && PageAssets.modules["main.js"] != nil)
        for name in PageAssets.modules.keys.sorted() {
            let m = try await RawHTTP.get(r.port, "/js/" + name)
            #expect(m.status == 200 && m.headers["content-type"] == "text/javascript; charset=utf-8", "\(name)")
            #expect(m.headers["cache-control"] == "no-cache" && m.headers["x-content-type-options"] == "nosniff"
                    && m.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(name)")
            #expect(m.body == PageAssets.modules[name], "\(name)")
        }
        for path in ["/js/nothing.js", "/js/", "/js/main", "/app.js"] {
            #expect(try await RawHTTP.get(r.port, path).status == 404, "\(path)")
        }
        let session = try await RawHTTP.get(r.port, "/session")
        #expect(session.body.contains(#""access":"local""#) && session.body.contains(#""writer":false"#))
    }

    @Test("the page's files carry entity tags: asked again with the tag, 304 and no body; another file's tag, the file")
    func entityTags() async throws {
        let r = try await Running()
        defer { r.stop() }
        var tags: Set<String> = []
        for path in ["/", "/app.css", "/js/main.js", "/js/model.js"] {
            let first = try await RawHTTP.get(r.port, path)
            let tag = try #require(first.headers["etag"], "\(path) has no ETag")
            #expect(first.status == 200 && tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18, "\(path): \(tag)")
            tags.insert(tag)
            let again = try await RawHTTP.get(r.port, path, headers: ["If-None-Match: \(tag)"])
            #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == tag, "\(path): \(again.status)")
            #expect(again.headers["cache-control"] == "no-cache", "\(path): still asked each time")
            let weak = try await RawHTTP.get(r.port, path, headers: ["If-None-Match: \"0000000000000000\", W/\(tag)"])
            #expect(weak.status == 304, "\(path): a list naming its tag weakly: \(weak.status)")
            let other = try await RawHTTP.get(r.port, path, headers: ["If-None-Match: \"0000000000000000\""])
            #expect(other.status == 200 && !other.body.isEmpty, "\(path): another tag gets the file")
        }
        #expect(tags.count == 4, "each file its own tag")
    }

    @Test("reads: a place with this box's own note, rating and visits; the hunt list; a search; the feed, follows and observations; observe and rename pass; nothing else passes")
    func reads() async throws {
        let r = try await Running()
        defer { r.stop() }
        let json = "Content-Type: application/json"
        let origin = "Origin: http://127.0.0.1:\(r.port)"
        let device = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let cookie = "Cookie: hc_token=\(device.token)"
        let note = #"{"cmd":"store","op":"note","id":"halans:d0577fb8cf","text":"Best milkshake on the coast"}"#
        #expect(try await RawHTTP.post(r.port, "/api/command", body: note, headers: [json, cookie, origin]).status == 200)
        // From this machine without pairing (read-only), as from a paired device.
        let place = try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"place","id":"halans:d0577fb8cf"}"#, headers: [json])
        #expect(place.status == 200 && place.body.hasPrefix(#"{"class":"PLACE""#), "\(place.body)")
        #expect(place.body.contains("Best milkshake on the coast") && place.body.contains("Big Banana"), "\(place.body)")
        let targets = try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"targets","limit":10}"#, headers: [json, cookie])
        #expect(targets.status == 200 && targets.body.contains(#""class":"TARGETS""#), "\(targets.body)")
        let search = try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"search","text":"banana","state":"NSW","limit":5}"#, headers: [json])
        #expect(search.status == 200 && search.body.hasPrefix(#"{"class":"PLACES""#) && search.body.contains("Big Banana"), "\(search.body)")
        let fav = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"store","op":"fav","id":"halans:d0577fb8cf"}"#,
                                         headers: [json, cookie, origin])
        #expect(fav.status == 200 && fav.body.contains("STORE"), "a favourite is a write the page may send: \(fav.body)")
        // The later screens' writes: an observation; a rename of a place that is not there.
        let observe = try await RawHTTP.post(r.port, "/api/command",
                                             body: #"{"cmd":"store","op":"observe","classification":"bird","title":"Kookaburra","date":"2026-11-25T10:00:00Z"}"#,
                                             headers: [json, cookie, origin])
        #expect(observe.status == 200 && observe.body.contains("Kookaburra"), "\(observe.body)")
        let rename = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"store","op":"rename","id":"location:custom-00000000","name":"X"}"#,
                                            headers: [json, cookie, origin])
        #expect(rename.status == 422 && rename.body.contains("not_found"), "the daemon's refusal, forwarded: \(rename.body)")
        let missing = try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"place","id":"nowhere:0000"}"#, headers: [json])
        #expect(missing.status == 404 && missing.body.contains("not_found"), "\(missing.body)")
        #expect(try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"status"}"#, headers: [json]).status == 400,
                "only the page's reads pass")
        for (body, cls) in [(#"{"cmd":"feed","limit":20}"#, "FEED"), (#"{"cmd":"following"}"#, "FOLLOWING"), (#"{"cmd":"observations"}"#, "OBSERVATIONS")] {
            let read = try await RawHTTP.post(r.port, "/api/read", body: body, headers: [json, cookie])
            #expect(read.status == 200 && read.body.hasPrefix(#"{"class":"\#(cls)""#), "\(body): \(read.body)")
        }
        #expect(try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"following","all":true}"#, headers: [json]).status == 400,
                "every user's follows are the bridge's view, not the page's")
        #expect(try await RawHTTP.post(r.port, "/api/read", body: note, headers: [json, cookie, origin]).status == 400,
                "no write passes as a read")
        #expect(try await RawHTTP.post(r.port, "/api/read", body: #"{"cmd":"place","id":"halans:d0577fb8cf"}"#,
                                       headers: ["Content-Type: text/plain"]).status == 415)
        let session = try await RawHTTP.get(r.port, "/session")
        #expect(session.body.contains(#""time_zone":"\#(TimeZone.current.identifier)""#), "the box's zone: \(session.body)")
    }

    @Test("writes: refused unpaired; a writer's paired device needs this Origin and JSON; the daemon does it; a follow passes, uploads and the bridge's commands do not")
    func writes() async throws {
        let r = try await Running()
        defer { r.stop() }
        let body = #"{"cmd":"hunt","targets":["-30.2748,153.1338,Web Banana"]}"#
        let json = "Content-Type: application/json"
        let origin = "Origin: http://127.0.0.1:\(r.port)"
        #expect(try await RawHTTP.post(r.port, "/api/command", body: body, headers: [json, origin]).status == 403)
        let device = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let cookie = "Cookie: hc_token=\(device.token)"
        #expect(try await RawHTTP.post(r.port, "/api/command", body: body, headers: [json, cookie]).status == 403, "no Origin")
        #expect(try await RawHTTP.post(r.port, "/api/command", body: body, headers: [json, cookie, "Origin: http://evil.example"]).status == 403)
        #expect(try await RawHTTP.post(r.port, "/api/command", body: body, headers: ["Content-Type: text/plain", cookie, origin]).status == 415)
        let done = try await RawHTTP.post(r.port, "/api/command", body: body, headers: [json, cookie, origin])
        #expect(done.status == 200 && done.body.contains("TRACKING"), "\(done.body)")
        let refused = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"upload","purpose":"photo","size":10}"#, headers: [json, cookie, origin])
        #expect(refused.status == 400, "only the page's own writes pass: \(refused.body)")
        let bridge = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"like_received","item_seq":1,"liker":"bob/car","like":true,"time":"2026-11-25T10:03:00Z"}"#,
                                            headers: [json, cookie, origin])
        #expect(bridge.status == 400, "the bridge's commands never pass: \(bridge.body)")
        // A later screen's write (the rest are in `reads`: this device's write rate is spent).
        let follow = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"follow","who":"jane/ute"}"#, headers: [json, cookie, origin])
        #expect(follow.status == 200 && follow.body.contains("RESULT"), "\(follow.body)")
        let reader = try r.server.store.pair(name: "ro", uid: 1000, user: "jane", writer: false, days: 1)
        #expect(try await RawHTTP.post(r.port, "/api/command", body: body, headers: [json, "Cookie: hc_token=\(reader.token)", origin]).status == 403)
    }

    @Test("a new Big Thing with its photo: the gate of every write, an image type only, the submission with the photo's bytes")
    func submitPhoto() async throws {
        let r = try await Running()
        defer { r.stop() }
        let origin = "Origin: http://127.0.0.1:\(r.port)"
        let device = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let cookie = "Cookie: hc_token=\(device.token)"
        let submit = #"{"cmd":"submit","name":"Big Wombat","lat":-35.28,"lon":149.13,"seen_at":"2026-11-25T10:00:00Z"}"#
        let path = "/api/submit-photo?submit=" + submit.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&filename=wombat.jpg"
        // A WebP's signature (ASCII, so the text body carries it), then 70,000 bytes: three chunks.
        let photo = "RIFF\u{0}\u{0}\u{0}\u{0}WEBP" + String(repeating: "wombat ", count: 10_000)
        let imageType = "Content-Type: image/webp"
        #expect(try await RawHTTP.post(r.port, path, body: photo, headers: [imageType, origin]).status == 403, "unpaired")
        #expect(try await RawHTTP.post(r.port, path, body: photo, headers: [imageType, cookie]).status == 403, "no Origin")
        #expect(try await RawHTTP.post(r.port, path, body: photo, headers: ["Content-Type: text/plain", cookie, origin]).status == 415,
                "a type another site's form can send")
        let withPhoto = #"{"cmd":"submit","name":"X","lat":1,"lon":1,"seen_at":"2026-11-25T10:00:00Z","photo":{"upload":"u1","filename":"a.jpg","content_type":"image/jpeg"}}"#
        let other = "/api/submit-photo?submit=" + withPhoto.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await RawHTTP.post(r.port, other, body: photo, headers: [imageType, cookie, origin]).status == 400, "the photo is the body, never an upload id")
        let done = try await RawHTTP.post(r.port, path, body: photo, headers: [imageType, cookie, origin])
        #expect(done.status == 200 && done.body.contains("SUBMIT") && done.body.contains("wombat.jpg"), "\(done.body)")
        let outbox = try LineClient(path: r.daemon.socketPath)
        try outbox.send(.outbox)
        let line = try outbox.line(ofClass: "OUTBOX")
        #expect(line.contains("Big Wombat") && line.contains("(70012 bytes)"), "every byte reached the daemon: \(line.prefix(400))")
    }

    @Test("the pairing link sets an HttpOnly SameSite cookie; an unknown token gets nothing")
    func pairingLink() async throws {
        let r = try await Running()
        defer { r.stop() }
        let d = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let ok = try await RawHTTP.get(r.port, "/pair?t=\(try #require(d.link))")
        #expect(ok.status == 303)
        let cookie = try #require(ok.headers["set-cookie"])
        #expect(cookie.hasPrefix("hc_token=") && !cookie.contains(d.link ?? "-") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        let bad = try await RawHTTP.get(r.port, "/pair?t=" + String(repeating: "A", count: 43))
        #expect(bad.status == 403 && bad.headers["set-cookie"] == nil)
    }

    @Test("/events: STATUS within a second, the link state, then events with id = seq resumed from Last-Event-ID")
    func events() async throws {
        let r = try await Running()
        defer { r.stop() }
        let live = try await RawHTTP.get(r.port, "/events", seconds: 30) { $0.contains("event: status") }
        #expect(live.status == 200 && live.headers["content-type"] == "text/event-stream")
        #expect(live.body.contains("event: link\ndata: {\"up\":true}"))
        #expect(live.body.contains("event: status\ndata: {\"class\":\"STATUS\""))
        #expect(!live.body.contains("\"database\""), "the page never sees the daemon's files")
        // The daemon logs its GPS state event once it has tried gpsd (nothing listens there):
        // wait for it, then resume from before the first.
        func logged() -> [Int] {
            r.daemon.logLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .compactMap { $0["seq"] as? Int }
        }
        let end = Date().addingTimeInterval(30)
        while logged().isEmpty, Date() < end { try await Task.sleep(for: .milliseconds(50)) }
        let seqs = logged()
        try #require(!seqs.isEmpty, "the daemon logged no event")
        let resumed = try await RawHTTP.get(r.port, "/events", headers: ["Last-Event-ID: \(seqs[0] - 1)"], seconds: 30) { $0.contains("id: \(seqs.last!)\n") }
        for s in seqs { #expect(resumed.body.contains("id: \(s)\n"), "seq \(s) missing after Last-Event-ID") }
    }

    @Test("/events: a friends' event (a find, a follow) reaches the page as a numbered `friends` frame naming only its class")
    func friendsNews() async throws {
        let r = try await Running()
        defer { r.stop() }
        let c = try LineClient(path: r.daemon.socketPath)
        let item = #"{"author":"jane","device":"ute","seq":7,"time":"\#(ISO8601.format(Date()))","kind":"arrived","note":"secret words","place":{"id":"halans:d0577fb8cf","kind":"bigthing","name":"Big Banana"}}"#
        try c.send(#"{"cmd":"feed_item","item":\#(item)}"#)
        #expect(try c.read(class: "RESULT")["new"] as? Bool == true)
        try c.send(#"{"cmd":"follow","who":"jane/ute"}"#)
        #expect(try c.read(class: "RESULT")["ok"] as? Bool == true)
        // From the start of the log: both, under their numbers, with nothing of the find in them.
        let got = try await RawHTTP.get(r.port, "/events", headers: ["Last-Event-ID: 0"], seconds: 30) {
            $0.contains(#"data: {"class":"FOLLOWING_CHANGED"}"#)
        }
        #expect(got.body.contains("event: friends\ndata: {\"class\":\"FEED\"}\n"), "\(got.body.suffix(1500))")
        #expect(got.body.contains("event: friends\ndata: {\"class\":\"FOLLOWING_CHANGED\"}\n"))
        #expect(!got.body.contains("secret words") && !got.body.contains("Big Banana") && !got.body.contains("jane"),
                "the page reads friends' finds itself, with its own access; the stream carries none")
        // (Split on any line break: the chunked body's "\r\n" is one Character.)
        let ids = got.body.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count && ids.count >= 2, "\(ids)")
    }

    @Test("past live.max_clients a browser gets 503 and a retry hint")
    func maxClients() async throws {
        let r = try await Running(maxClients: 1)
        defer { r.stop() }
        // Blocking reads run on threads of their own: the cooperative pool (two threads here)
        // must stay free for the server's handlers.
        // The first browser holds its stream until the second has had its answer.
        let secondAnswered = Mutex(false)
        async let first = RawHTTP.get(r.port, "/events", seconds: 60) { _ in secondAnswered.withLock { $0 } }
        let deadline = Date().addingTimeInterval(30)
        while r.server.slots.inUse == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let second = try await RawHTTP.get(r.port, "/events", seconds: 30)
        secondAnswered.withLock { $0 = true }
        #expect(second.status == 503 && second.headers["retry-after"] == "5", "\(second.status) \(second.headers) \(second.body.prefix(300))")
        #expect(try await first.status == 200)
    }

    @Test("an address over its request rate gets 429 (for what reaches the daemon: the page's own files are never counted)")
    func rateLimited() async throws {
        // A burst of 30 and one request back every 5 s: 60 requests in a row outrun it however
        // slowly a loaded machine sends them.
        let r = try await Running(rate: (perSecond: 0.2, burst: 30))
        defer { r.stop() }
        var statuses: [Int] = []
        for _ in 0..<60 { statuses.append(try await RawHTTP.get(r.port, "/session").status) }
        #expect(statuses.prefix(30).allSatisfy { $0 == 200 })
        #expect(statuses.contains(429))
    }
}

/// Runs blocking work on a thread of its own and awaits its result.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { k in
        Thread { k.resume(with: Result { try work() }) }.start()
    }
}

/// hotcold-web listening on this machine's own non-loopback address, reached from that
/// address: a peer that is not 127.0.0.1, as a phone on the Wi-Fi is.
@Suite("hotcold-web from another address", .offCooperativePool)
struct StrangerTests {
    /// The first IPv4 address of a non-loopback interface, if this machine has one.
    static var outsideAddress: String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var p = list
        while let a = p {
            defer { p = a.pointee.ifa_next }
            guard let sa = a.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var buf = [CChar](repeating: 0, count: 64)
            let sin = UnsafeRawPointer(sa).assumingMemoryBound(to: sockaddr_in.self)
            var addr = sin.pointee.sin_addr
            inet_ntop(AF_INET, &addr, &buf, socklen_t(buf.count))
            let s = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !s.hasPrefix("127.") { return s }
        }
        return nil
    }

    @Test("without a pairing another address sees only how to pair, reads nothing, writes nothing; paired, it reads",
          .enabled(if: outsideAddress != nil))
    func strangerSeesNothing() async throws {
        let host = try #require(Self.outsideAddress)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Far Banana"])
        defer { daemon.stop() }
        let dir = try TemporaryDirectory("stranger")
        defer { dir.remove() }
        var c = WebConfiguration()
        c.daemon.socket = daemon.socketPath
        c.listen.address = host
        c.listen.port = 0
        let server = WebServer(config: c, store: try TokenStore(directory: dir.path("state"), maxDevices: 4))
        let web = try await InProcessWebServer(server)
        defer { web.stop() }
        let port = web.port

        let page = try await RawHTTP.get(port, "/", host: host)
        #expect(page.status == 401 && page.body.contains("hotcold web pair") && !page.body.contains("<script"))
        // Asking with any tag changes nothing: a stranger is refused, never told "not modified".
        #expect(try await RawHTTP.get(port, "/", host: host, headers: ["If-None-Match: *"]).status == 401)
        #expect(try await RawHTTP.get(port, "/events", host: host, seconds: 30).status == 401)
        #expect(try await RawHTTP.get(port, "/session", host: host).status == 401)
        let write = try await RawHTTP.send(port: port, host: host,
            "POST /api/command HTTP/1.1\r\nHost: \(host):\(port)\r\nOrigin: http://\(host):\(port)\r\nContent-Type: application/json\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{\"cmd\":\"roam\"}\n")
        #expect(write.status == 403)

        let d = try server.store.pair(name: "phone", uid: 1000, user: "jane", writer: false, days: 1)
        let cookie = "Cookie: hc_token=\(d.token)"
        #expect(try await RawHTTP.get(port, "/", host: host, headers: [cookie]).status == 200)
        let live = try await RawHTTP.get(port, "/events", host: host, headers: [cookie], seconds: 30) { $0.contains("event: status") }
        #expect(live.status == 200 && live.body.contains("event: status"))
    }
}
