import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test client for a Unix stream socket speaking JSON lines, with timeouts on every read.
public final class LineClient: @unchecked Sendable {
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// The peer closed the connection (seen by `nextLine`).
    public private(set) var sawEOF = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// `receiveBuffer` shrinks the kernel's receive buffer, to make a client that stalls sooner.
    public init(path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let e = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect \(path): \(e)")
        }
    }

    deinit { close(fd) }

    /// Sends raw bytes (a line needs its own "\n").
    public func send(bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(String(cString: strerror(errno)))")
            }
            off += n
        }
    }

    public func send(_ line: String) throws { try send(bytes: Array((line + "\n").utf8)) }

    /// Sends text exactly as given (no newline added), for framing tests.
    public func sendRaw(_ text: String) { try? send(bytes: Array(text.utf8)) }
    public func sendRaw(bytes: [UInt8]) { try? send(bytes: bytes) }

    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, or nil at end of stream or when `timeout` passes (never throws).
    public func nextLine(timeout: Duration = .seconds(20)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            if sawEOF { return nil }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(min(left / .milliseconds(1), 60_000).rounded(.up))) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 { buffer.append(contentsOf: chunk[..<n]) } else if n == 0 || errno != EINTR { sawEOF = true }
        }
    }

    /// Every line until end of stream (or the deadline).
    public func readToEnd(timeout: Duration = .seconds(30)) -> [String] {
        var lines: [String] = []
        let deadline = ContinuousClock.now + timeout
        while let l = nextLine(timeout: max(.zero, deadline - ContinuousClock.now)) { lines.append(l) }
        return lines
    }

    /// The next line within `timeout` seconds; nil when the peer closed. Throws on timeout.
    public func readLine(timeout: TimeInterval = 5) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "no line within \(timeout) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left, 1) * 1000))
            if r == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { return nil }
                throw Failure(description: "recv: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Reads until a line whose `"class"` is `cls`, returning it (and skipping others).
    public func read(class cls: String, timeout: TimeInterval = 5) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
                throw Failure(description: "closed before a \(cls)")
            }
            if let o = Self.object(line), o["class"] as? String == cls { return o }
        }
    }

    public static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
}

extension LineClient {
    /// Polls `status` until the daemon reports gpsd connected.
    public func waitUntilGPSDConnected(timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            try send(#"{"cmd":"status"}"#)
            let s = try read(class: "STATUS")
            if (s["gps"] as? [String: Any])?["link"] as? String == "connected" { return }
            usleep(100_000)
        }
        throw Failure(description: "daemon never connected to gpsd")
    }
}
