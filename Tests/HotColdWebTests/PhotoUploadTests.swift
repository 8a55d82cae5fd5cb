import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Synchronization
import Testing
@testable import HotColdWeb
#if canImport(Glibc)
import Glibc
#endif

/// A phone's photo through hotcold-web, against a real hotcoldd: streamed on as it arrives, one
/// at a time per device, cut when it dribbles (without holding up anyone else), its content
/// checked against its type, and a submission whose reply the daemon lost asked for again with
/// its key — one submission either way.
@Suite("hotcold-web photo uploads", .offCooperativePool, .serialized)
struct PhotoUploadTests {
    final class Rig: @unchecked Sendable {
        let daemon: DaemonProcess
        let dir: TemporaryDirectory
        let server: WebServer
        let web: InProcessWebServer
        var port: Int { web.port }
        let proxy: DroppingProxy?

        /// `dropReply`: hotcold-web talks to the daemon through a proxy that cuts the connection
        /// instead of passing the first line of that class on (the daemon has stored what it answers).
        init(limits: PhotoUploads.Limits = PhotoUploads.Limits(), dropReply: String? = nil) async throws {
            let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Web Banana"])
            let dir = try TemporaryDirectory("web-photo")
            self.daemon = daemon
            self.dir = dir
            proxy = try dropReply.map { try DroppingProxy(listen: dir.path("proxy.sock"), daemon: daemon.socketPath, dropping: $0) }
            var c = WebConfiguration()
            c.daemon.socket = proxy?.path ?? daemon.socketPath
            c.listen.port = 0
            c.daemon.config = "/nonexistent/hotcoldd.toml"
            c.access.stateDirectory = dir.path("state")
            c.access.writeBurst = 50
            server = WebServer(config: c, store: try TokenStore(directory: dir.path("state"), maxDevices: 8), photoLimits: limits)
            web = try await InProcessWebServer(server)
        }

        func device(_ name: String) throws -> String {
            "Cookie: hc_token=\(try server.store.pair(name: name, uid: 0, user: "root", writer: true, days: 1).token)"
        }

        var origin: String { "Origin: http://127.0.0.1:\(port)" }

        func outbox() throws -> [[String: Any]] {
            let c = try LineClient(path: daemon.socketPath)
            try c.send(.outbox)
            return LineClient.object(try c.line(ofClass: "OUTBOX"))?["result"] as? [[String: Any]] ?? []
        }

        func stop() {
            web.stop()
            proxy?.stop()
            daemon.stop()
            dir.remove()
        }
    }

    static func photo(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: TestData.repo("Tests/Photos/" + name))) }

    static func path(_ submit: String, filename: String = "wombat.jpg") -> String {
        "/api/submit-photo?submit=" + submit.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&filename=" + filename
    }

    static let submit = #"{"cmd":"submit","name":"Big Wombat","lat":-35.28,"lon":149.13,"seen_at":"2026-11-25T10:00:00Z"}"#

    /// One HTTP reply over a raw loopback socket: the head, then `body` in pieces of `piece`
    /// bytes `pause` seconds apart (a slow phone), reading the reply as soon as it comes.
    /// `lingering`: after the reply, go on sending (a piece every `pause`) for up to this long,
    /// and say when the server closed the connection (`closedAfter`, from the start).
    static func post(_ port: Int, _ path: String, headers: [String], body: [UInt8], length: Int? = nil,
                     piece: Int = 1 << 20, pause: Double = 0, seconds: Double = 60,
                     lingering: Double = 0) throws -> (reply: RawHTTP.Reply, after: Double, closedAfter: Double?) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw TestFailure("connect: \(String(cString: strerror(errno)))") }
        let started = ContinuousClock.now
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined()
            + "Content-Length: \(length ?? body.count)\r\nConnection: close\r\n\r\n"
        func write(_ bytes: ArraySlice<UInt8>) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        write(Array(head.utf8)[...])
        var received = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        /// Reads what has come (waiting up to `ms`); false once the server closed.
        func read(_ ms: Int32) -> Bool {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, ms) > 0 else { return true }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return false }
            received += buf[..<n]
            return true
        }
        func complete() -> Bool {
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let length = text[..<end.lowerBound].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            return received.count - text[..<end.upperBound].utf8.count >= length
        }
        var sent = 0
        var answeredAt: Double?
        while sent < body.count, !complete() {
            let end = min(body.count, sent + piece)
            write(body[sent..<end])
            sent = end
            if pause > 0 {
                let until = ContinuousClock.now + .milliseconds(Int64(pause * 1000))
                while ContinuousClock.now < until, !complete(), read(20) {}
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while !complete(), ContinuousClock.now < deadline, read(50) {}
        if complete() { answeredAt = WebRoutes.seconds(ContinuousClock.now - started) }
        var closedAt: Double?
        let lingerUntil = ContinuousClock.now + .milliseconds(Int64(lingering * 1000))
        while lingering > 0, ContinuousClock.now < lingerUntil {
            if sent < body.count {
                let n = Glibc.send(fd, [body[sent]], 1, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EPIPE || errno == ECONNRESET { closedAt = WebRoutes.seconds(ContinuousClock.now - started); break }
                if n > 0 { sent += 1 }
            }
            if !read(Int32(max(20, pause * 1000))) { closedAt = WebRoutes.seconds(ContinuousClock.now - started); break }
        }
        let text = String(decoding: received, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        var lines = (parts.first ?? "").components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headerFields: [String: String] = [:]
        for l in lines {
            guard let c = l.firstIndex(of: ":") else { continue }
            headerFields[l[..<c].lowercased()] = l[l.index(after: c)...].trimmingCharacters(in: .whitespaces)
        }
        return (RawHTTP.Reply(status: status, headers: headerFields, body: parts.dropFirst().joined(separator: "\r\n\r\n")),
                answeredAt ?? .infinity, closedAt)
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { k in Thread { k.resume(with: Result { try body() }) }.start() }
    }

    static func message(_ reply: RawHTTP.Reply) -> String {
        (LineClient.object(reply.body)?["message"] as? String) ?? reply.body
    }

    // MARK: - A slow phone holds up only itself

    @Test("a phone sending a byte now and then is cut with 408 within its first slow window, while another device's photo goes through")
    func aSlowPhoneBlocksOnlyItself() async throws {
        var limits = PhotoUploads.Limits()
        limits.window = 2
        limits.minimumRate = 8 << 10
        limits.deadline = 20
        let rig = try await Rig(limits: limits)
        defer { rig.stop() }
        let slow = try rig.device("slow"), other = try rig.device("other")
        let jpeg = try Self.photo("wombat.jpg")
        let dribble = jpeg + [UInt8](repeating: 0x55, count: 100_000)
        let port = rig.port, origin = rig.origin, path = Self.path(Self.submit)
        // The slow phone: a byte every half second, reading its reply as soon as it comes.
        let slowTask = Task {
            try await Self.onThread {
                try Self.post(port, path, headers: [slow, origin, "Content-Type: image/jpeg"], body: dribble, piece: 1, pause: 0.5, seconds: 30,
                              lingering: 12)
            }
        }
        // It holds its own slot now.
        let deadline = ContinuousClock.now + .seconds(10)
        while rig.server.photoUploads.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(rig.server.photoUploads.count == 1)
        // Meanwhile another device's photo goes through at once.
        let fast = try await Self.onThread { try Self.post(port, path, headers: [other, origin, "Content-Type: image/jpeg"], body: jpeg) }
        #expect(fast.reply.status == 200 && fast.reply.body.contains("SUBMIT"), "\(fast.reply.status) \(fast.reply.body)")
        // The same phone cannot start a second photo while its first is under way.
        let second = try await Self.onThread { try Self.post(port, path, headers: [slow, origin, "Content-Type: image/jpeg"], body: jpeg) }
        #expect(second.reply.status == 429 && Self.message(second.reply).contains("sending a photo already"), "\(second.reply.body)")
        // Cut at the end of its first window (2 s, a few dozen bytes), long before the deadline, saying why.
        let cut = try await slowTask.value
        #expect(cut.reply.status == 408, "\(cut.reply.status) \(cut.reply.body)")
        #expect(cut.after < 8, "answered after \(cut.after) s")
        #expect(LineClient.object(cut.reply.body)?["code"] as? String == "too_slow")
        #expect(Self.message(cut.reply).contains("bytes/s, under the 8 KiB/s a photo needs"), "\(cut.reply.body)")
        // And its connection is closed soon after, however it goes on dribbling (nothing of it is read).
        let closed = try #require(cut.closedAfter, "the server kept the connection for 12 s after the cut")
        #expect(closed < cut.after + 3, "closed \(closed - cut.after) s after the reply")
        // Its slot is free again, and only the other device's photo was queued.
        #expect(rig.server.photoUploads.count == 0)
        #expect(try rig.outbox().count == 1)
        let again = try await Self.onThread { try Self.post(port, path, headers: [slow, origin, "Content-Type: image/jpeg"], body: jpeg) }
        #expect(again.reply.status == 200, "\(again.reply.body)")
    }

    @Test("a photo that keeps coming but never ends is cut at the deadline on the whole body")
    func theWholeBodyHasADeadline() async throws {
        var limits = PhotoUploads.Limits()
        limits.window = 1
        limits.minimumRate = 1 << 10
        limits.deadline = 3
        let rig = try await Rig(limits: limits)
        defer { rig.stop() }
        let device = try rig.device("phone")
        let body = try Self.photo("wombat.jpg") + [UInt8](repeating: 0x55, count: 200_000)
        let port = rig.port, origin = rig.origin, path = Self.path(Self.submit)
        // 2 KiB every 0.2 s: 10 KiB/s, fast enough for every window, 20 s for the whole.
        let r = try await Self.onThread {
            try Self.post(port, path, headers: [device, origin, "Content-Type: image/jpeg"], body: body, piece: 2048, pause: 0.2, seconds: 30)
        }
        #expect(r.reply.status == 408 && Self.message(r.reply).contains("did not arrive within 3 s"), "\(r.reply.status) \(r.reply.body)")
        #expect(r.after < 6, "answered after \(r.after) s")
        #expect(try rig.outbox().isEmpty)
    }

    // MARK: - Content checked at the page's route

    @Test("an ELF as image/webp and HTML as image/jpeg are refused with 415 and a sentence; a real photo of each type the page sends goes")
    func contentIsChecked() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let device = try rig.device("phone")
        let port = rig.port, origin = rig.origin, path = Self.path(Self.submit)
        let elf = Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))
        let asWebP = try await Self.onThread { try Self.post(port, path, headers: [device, origin, "Content-Type: image/webp"], body: elf) }
        #expect(asWebP.reply.status == 415 && LineClient.object(asWebP.reply.body)?["code"] as? String == "bad_content")
        #expect(Self.message(asWebP.reply) == "the photo is declared image/webp, but its content is an ELF executable (it starts 7F 45 4C 46 …)",
                "\(asWebP.reply.body)")
        let page = Array("<!DOCTYPE html><html><body>hello</body></html>".utf8)
        let asJPEG = try await Self.onThread { try Self.post(port, path, headers: [device, origin, "Content-Type: image/jpeg"], body: page) }
        #expect(asJPEG.reply.status == 415 && Self.message(asJPEG.reply).contains("declared image/jpeg, but its content is HTML"),
                "\(asJPEG.reply.body)")
        #expect(try rig.outbox().isEmpty, "nothing refused was queued")
        for (file, type) in [("wombat.jpg", "image/jpeg"), ("wombat.png", "image/png"), ("wombat.webp", "image/webp")] {
            let bytes = try Self.photo(file)
            let r = try await Self.onThread { try Self.post(port, path, headers: [device, origin, "Content-Type: \(type)"], body: bytes) }
            #expect(r.reply.status == 200 && r.reply.body.contains("SUBMIT"), "\(file): \(r.reply.body)")
        }
        let items = try rig.outbox()
        #expect(items.count == 3)
        // Every byte reached the daemon.
        #expect((items.first?["request"] as? String)?.contains("(\(try Self.photo("wombat.jpg").count) bytes)") == true, "\(items)")
    }

    // MARK: - A lost reply, asked again

    @Test("the daemon's reply to submit is lost: hotcold-web asks again with the key and reports the stored submission; the phone's retry is the same one")
    func aLostReplyIsAskedAgain() async throws {
        let rig = try await Rig(dropReply: "SUBMIT")
        defer { rig.stop() }
        let device = try rig.device("phone")
        let port = rig.port, origin = rig.origin
        let keyed = #"{"cmd":"submit","name":"Big Wombat","lat":-35.28,"lon":149.13,"seen_at":"2026-11-25T10:00:00Z","key":"0f1e2d3c4b5a69788796a5b4c3d2e1f0"}"#
        let path = Self.path(keyed)
        let jpeg = try Self.photo("wombat.jpg")
        let first = try await Self.onThread { try Self.post(port, path, headers: [device, origin, "Content-Type: image/jpeg"], body: jpeg) }
        #expect(rig.proxy?.dropped == 1, "the daemon's first SUBMIT never reached hotcold-web")
        #expect(first.reply.status == 200 && first.reply.body.contains("SUBMIT"), "\(first.reply.status) \(first.reply.body)")
        #expect(try rig.outbox().count == 1)
        // The phone never heard (say its Wi-Fi dropped too) and sends it again: the same submission.
        let again = try await Self.onThread { try Self.post(port, path, headers: [device, origin, "Content-Type: image/jpeg"], body: jpeg) }
        #expect(again.reply.status == 200, "\(again.reply.body)")
        func id(_ r: RawHTTP.Reply) -> Int? {
            (LineClient.object(r.body)?["reply"] as? String).flatMap { LineClient.object($0)?["result"] as? [String: Any] }?["id"] as? Int
        }
        #expect(id(first.reply) != nil && id(first.reply) == id(again.reply))
        #expect(try rig.outbox().count == 1)
    }
}

/// A Unix socket between hotcold-web and the daemon that passes every line on, except that it
/// cuts both connections instead of passing on the first daemon line of class `dropping`.
final class DroppingProxy: @unchecked Sendable {
    let path: String
    let daemon: String
    let dropping: String
    private let listener: Int32
    private let state = Mutex((dropped: 0, stopped: false))

    var dropped: Int { state.withLock { $0.dropped } }

    init(listen path: String, daemon: String, dropping: String) throws {
        self.path = path
        self.daemon = daemon
        self.dropping = dropping
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = Self.address(path)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard rc == 0, listen(listener, 16) == 0 else { throw TestFailure("proxy at \(path): \(String(cString: strerror(errno)))") }
        Thread { [self] in accepting() }.start()
    }

    static func address(_ path: String) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { p in
            for (i, b) in path.utf8.prefix(p.count - 1).enumerated() { p[i] = b }
        }
        return addr
    }

    private func accepting() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let upstream = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = Self.address(daemon)
            let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard rc == 0 else { close(client); close(upstream); continue }
            Thread { [self] in pump(from: client, to: upstream, watch: false) }.start()
            Thread { [self] in pump(from: upstream, to: client, watch: true) }.start()
        }
    }

    /// Copies bytes; on the daemon's side line by line, cutting both at the line to drop.
    private func pump(from: Int32, to: Int32, watch: Bool) {
        var pending = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            if !watch {
                _ = buf.withUnsafeBytes { Glibc.send(to, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }
                continue
            }
            pending += buf[..<n]
            while let nl = pending.firstIndex(of: 10) {
                let line = Array(pending[...nl])
                pending.removeFirst(nl + 1)
                let cut = String(decoding: line, as: UTF8.self).contains(#""class":"\#(dropping)""#)
                    && state.withLock { s in s.dropped == 0 ? { s.dropped += 1; return true }() : false }
                if cut {
                    shutdown(from, Int32(SHUT_RDWR))
                    shutdown(to, Int32(SHUT_RDWR))
                    close(from)
                    close(to)
                    return
                }
                _ = line.withUnsafeBytes { Glibc.send(to, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
        shutdown(to, Int32(SHUT_RDWR))
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
