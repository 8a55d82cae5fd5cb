import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28's starvation case on real processes: the built hotcold-web under the unit's file
/// limit (LimitNOFILE=1024), a real hotcoldd, a stranger at 127.0.0.2 holding thousands of
/// half-finished requests (no cookie, the head never ends), and a paired phone at 127.0.0.3.
@Suite("hotcold-web under a connection flood (built binaries)", .offCooperativePool)
struct FloodTests {
    static let strangers = 5000

    @Test("a stranger holding 5,000 half-finished requests: the paired phone is served within 1 s, the process lives, its descriptors stay under the limit")
    func flood() async throws {
        try await onThread { try Self.floodBlocking() }
    }

    static func floodBlocking() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Flood Banana"])
        defer { daemon.stop() }
        let dir = try TemporaryDirectory("flood")
        defer { dir.remove() }
        let port = Int(try FreePort.tcp())
        let control = dir.path("control.sock")
        // As the unit runs it: a file limit of 1024.
        let web = try SpawnedProcess(["/bin/sh", "-c", "ulimit -n 1024 && exec \"$0\" \"$@\"", Binaries.url("hotcold-web").path,
                                      "--socket", daemon.socketPath, "--port", "\(port)", "--state-dir", dir.path("state"),
                                      "--control-socket", control, "--daemon-config", dir.path("none.toml")],
                                     stderr: dir.path("web.stderr"))
        defer { web.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while (try? RawHTTP.getBlocking(port, "/app.css", seconds: 1).status) != 200, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let pair = try Subprocess.run(Binaries.url("hotcold"), ["web", "pair", "--control", control, "--name", "phone", "--no-qr"])
        let url = try #require(pair.stdout.split(separator: "\n").first { $0.hasPrefix("Open on the device: ") })
        let path = String(url.dropFirst("Open on the device: http://127.0.0.1:\(port)".count))
        let paired = try request(port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", from: "127.0.0.3")
        let cookie = try #require(paired.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: hc_token=") })
            .dropFirst("set-cookie: ".count).prefix { $0 != ";" }

        // The stranger: thousands of connections whose request head never ends, kept open.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<strangers {
            guard let fd = try? Sockets.connect(port: port, from: "127.0.0.2", blocking: false) else { continue }
            held.append(fd)
        }
        // Each socket, once its connection is made, gets half a request.
        var pending = Set(held)
        var connected = 0
        let settle = Date().addingTimeInterval(10)
        while !pending.isEmpty, Date() < settle {
            var polls = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 50) > 0 else { continue }
            for p in polls where p.revents != 0 {
                pending.remove(p.fd)
                if p.revents & Int16(POLLERR | POLLHUP) == 0 {
                    connected += 1
                    Sockets.send(p.fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ")
                }
            }
        }
        #expect(connected > 1000, "the stranger's connections were made: \(connected) of \(held.count)")

        // hotcold-web answers the burst: all but its 32 (max_unpaired_per_address) are closed at
        // once; the stranger keeps holding those 32 and its 5,000 sockets.
        let closedBy = Date().addingTimeInterval(30)
        var closedCount = 0
        var open = Set(held)
        while closedCount < connected - 32, Date() < closedBy {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 50) > 0 else { continue }
            for p in polls where p.revents != 0 {
                open.remove(p.fd)
                closedCount += 1
            }
        }
        #expect(closedCount >= connected - 32, "hotcold-web closed \(closedCount) of the stranger's \(connected) connections")
        // The phone, meanwhile: ten requests, each answered promptly (the FIGURES line has the
        // worst; the bound is loose so a loaded machine does not fail it, while a starved phone,
        // which waits for its 5 s deadline, does).
        var worst = 0.0
        for _ in 0..<10 {
            let t0 = Date()
            let r = try request(port, "GET /session HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n",
                                from: "127.0.0.3", seconds: 5)
            let took = Date().timeIntervalSince(t0)
            worst = max(worst, took)
            #expect(r.head.hasPrefix("HTTP/1.1 200") && r.body.contains(#""access":"paired""#), "the phone: \(r.head.prefix(80))")
            #expect(took < 5.0, "the paired phone waited \(took) s with \(held.count) stranger connections")
        }
        print("FIGURES paired phone: worst of 10 requests \(Int(worst * 1000)) ms while a stranger made \(connected) connections (\(held.count) tried)")
        // Its live stream too: the first STATUS promptly.
        let t0 = Date()
        let live = try request(port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n",
                               from: "127.0.0.3", seconds: 5, until: "event: status")
        #expect(live.body.contains("event: status") && Date().timeIntervalSince(t0) < 5.0, "the phone's live stream")
        #expect(web.isRunning, "hotcold-web is alive")
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(web.pid)/fd").count) ?? 0
        #expect(fds > 0 && fds < 1024 - 64, "hotcold-web holds \(fds) descriptors of its 1024")
    }

    struct Reply {
        var head: String
        var body: String
    }

    /// One request from a source address of our own; reads until the server closes, `until`
    /// appears or `seconds` pass.
    static func request(_ port: Int, _ text: String, from source: String, seconds: Double = 5, until: String? = nil) throws -> Reply {
        let fd = try Sockets.connect(port: port, from: source)
        defer { close(fd) }
        Sockets.send(fd, text)
        var data = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 20) > 0 else { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buf[..<n]
            if let until, String(decoding: data, as: UTF8.self).contains(until) { break }
        }
        let s = String(decoding: data, as: UTF8.self)
        let parts = s.components(separatedBy: "\r\n\r\n")
        return Reply(head: parts.first ?? "", body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
