import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Synchronization
import Testing
@testable import HotColdWeb
#if canImport(Glibc)
import Glibc
#endif

/// Browsers that stop reading give their live slots back within seconds (`StreamDrain`): a
/// stream nobody says it reads is cut after `live.read_seconds` (8 s), one whose connection
/// stops draining after `live.stall_seconds` (3 s) once its few KiB in flight are taken; a
/// browser that reads and says so keeps its stream.
@Suite("live streams that stop reading are cut", .offCooperativePool, .serialized)
struct LiveStallTests {
    /// A live stream from a raw socket: the fd, and the stream's name from its first frames.
    static func open(port: Int, cookie: String, receiveBuffer: Int32? = nil) throws -> (Int32, String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { close(fd); throw TestFailure("connect: \(String(cString: strerror(errno)))") }
        Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: hc_token=\(cookie)\r\n\r\n")
        let head = Sockets.read(fd, seconds: 30) { $0.contains("event: stream\ndata: ") && $0.contains("\"}") }
        guard let range = head.text.range(of: #""id":""#) else { close(fd); throw TestFailure("no stream frame: \(head.text.prefix(300))") }
        return (fd, String(head.text[range.upperBound...].prefix(43)))
    }

    static func sayRead(port: Int, cookie: String, stream: String) throws -> Int {
        try RawHTTP.postBlocking(port, "/events/read?stream=\(stream)", body: "", headers: ["Cookie: hc_token=\(cookie)"]).status
    }

    @Test("every slot held by streams that are never read: cut within seconds, and another device then follows")
    func neverRead() async throws {
        let r = try await WebServerTests.Running(maxClients: 4)
        defer { r.stop() }
        let hog = try r.server.store.pair(name: "hog", uid: 0, user: "root", writer: true, days: 1)
        let phone = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        let opened = Date()
        for _ in 0..<4 {
            let fd = try Sockets.connect(port: r.port)
            Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\nCookie: hc_token=\(hog.token)\r\n\r\n")
            held.append(fd)
        }
        #expect(try await HostileTests.wait(30) { r.server.slots.inUse == 4 })
        let full = try await RawHTTP.get(r.port, "/events", headers: ["Cookie: hc_token=\(phone.token)"], seconds: 30)
        #expect(full.status == 503, "all four slots taken: \(full.status)")
        #expect(try await HostileTests.wait(60) { r.server.slots.unread == 4 && r.server.slots.inUse == 0 },
                "cut \(r.server.slots.unread), in use \(r.server.slots.inUse)")
        let took = Date().timeIntervalSince(opened)
        print("FIGURES four never-read streams cut \(String(format: "%.1f", took)) s after opening (read_seconds 8)")
        #expect(took < 20, "cut only after \(took) s")
        let live = try await RawHTTP.get(r.port, "/events", headers: ["Cookie: hc_token=\(phone.token)"], seconds: 30) { $0.contains("event: status") }
        #expect(live.status == 200 && live.body.contains("event: status"), "another device follows: \(live.status)")
    }

    @Test("a client that says it reads but never takes a byte: its few KiB in flight fill, and it is cut within seconds of that")
    func saysButDoesNotRead() async throws {
        let r = try await WebServerTests.Running(maxClients: 4)
        defer { r.stop() }
        let d = try r.server.store.pair(name: "liar", uid: 0, user: "root", writer: true, days: 1)
        let (fd, stream) = try await onThread { try Self.open(port: r.port, cookie: d.token, receiveBuffer: 4096) }
        defer { close(fd) }
        let opened = Date()
        let stop = Mutex(false)
        let sayer = Task.detached {
            while !stop.withLock({ $0 }) {
                _ = try? Self.sayRead(port: r.port, cookie: d.token, stream: stream)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer { stop.withLock { $0 = true }; sayer.cancel() }
        #expect(try await HostileTests.wait(90) { r.server.slots.stalled == 1 && r.server.slots.inUse == 0 },
                "stalled \(r.server.slots.stalled), unread \(r.server.slots.unread), in use \(r.server.slots.inUse)")
        #expect(r.server.slots.unread == 0, "it said it read: cut for not draining, not for silence")
        print("FIGURES a stream whose reader takes nothing (4 KiB receive buffer) cut \(String(format: "%.1f", Date().timeIntervalSince(opened))) s after opening")
    }

    @Test("a browser that reads and says so keeps its stream (20 s, frames throughout)")
    func readerKept() async throws {
        let r = try await WebServerTests.Running(maxClients: 4)
        defer { r.stop() }
        let d = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let frames = try await onThread { () throws -> Int in
            let (fd, stream) = try Self.open(port: r.port, cookie: d.token)
            defer { close(fd) }
            var statuses = 0
            let end = Date().addingTimeInterval(20)
            var next = Date()
            while Date() < end {
                let got = Sockets.read(fd, seconds: 0.5)
                if got.closed { throw TestFailure("the stream of a reading browser was cut after \(statuses) statuses") }
                statuses += got.text.components(separatedBy: "event: status").count - 1
                if Date() >= next {
                    let said = try Self.sayRead(port: r.port, cookie: d.token, stream: stream)
                    if said != 204 { throw TestFailure("saying it reads: \(said)") }
                    next = Date().addingTimeInterval(2)
                }
            }
            return statuses
        }
        #expect(frames > 40, "\(frames) statuses in 20 s")
        #expect(r.server.slots.stalled == 0 && r.server.slots.unread == 0 && r.server.slots.inUse == 1)
        // Nobody else can say a stream is read: another device, or a made-up name.
        let other = try r.server.store.pair(name: "other", uid: 0, user: "root", writer: true, days: 1)
        let refused = try await onThread { try Self.sayRead(port: r.port, cookie: other.token, stream: String(repeating: "A", count: 43)) }
        #expect(refused == 404)
    }
}
