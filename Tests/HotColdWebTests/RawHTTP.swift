import Foundation
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 client over a real loopback TCP socket: one request, read until the server
/// closes or `seconds` pass (an SSE stream never closes by itself).
struct RawHTTP: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    static func sendBlocking(port: Int, host: String = "127.0.0.1", _ request: String, seconds: Double = 5,
                     until stop: ((String) -> Bool)? = nil) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr(host)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw TestFailure("connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        var buf = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buf[..<n]
            if let stop, stop(String(decoding: data, as: UTF8.self)) { break }
        }
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for l in lines {
            guard let c = l.firstIndex(of: ":") else { continue }
            headers[l[..<c].lowercased(), default: ""] += l[l.index(after: c)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func getBlocking(_ port: Int, _ path: String, host: String = "127.0.0.1", headers: [String] = [], seconds: Double = 5,
                    until stop: ((String) -> Bool)? = nil) throws -> Reply {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return try sendBlocking(port: port, host: host, "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n\(extra)Connection: close\r\n\r\n",
                        seconds: seconds, until: stop)
    }

    /// A write goes through to the daemon and back: on a loaded machine that can take a while,
    /// so it waits longer than a read (a test's patience, not a goal).
    static func postBlocking(_ port: Int, _ path: String, body: String, headers: [String]) throws -> Reply {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return try sendBlocking(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
                                seconds: 30)
    }

    // The same from async tests, on a thread of their own: Swift's cooperative pool (two threads
    // here) must stay free for the in-process server's handlers.
    static func send(port: Int, host: String = "127.0.0.1", _ request: String, seconds: Double = 5,
                     until stop: (@Sendable (String) -> Bool)? = nil) async throws -> Reply {
        try await onThread { try sendBlocking(port: port, host: host, request, seconds: seconds, until: stop) }
    }

    static func get(_ port: Int, _ path: String, host: String = "127.0.0.1", headers: [String] = [], seconds: Double = 5,
                    until stop: (@Sendable (String) -> Bool)? = nil) async throws -> Reply {
        try await onThread { try getBlocking(port, path, host: host, headers: headers, seconds: seconds, until: stop) }
    }

    static func post(_ port: Int, _ path: String, body: String, headers: [String]) async throws -> Reply {
        try await onThread { try postBlocking(port, path, body: body, headers: headers) }
    }
}
