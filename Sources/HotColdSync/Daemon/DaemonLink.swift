import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One connection to the daemon's socket for request/reply: send a line, wait (with a
/// deadline) for its `SYNC` or `ERROR` reply, skipping the greeting and anything broadcast.
/// Connects on first use and again after any failure, so a daemon restart costs one failed
/// call, not the process.
///
/// Why not the shared protocol's line client: this is the sync process's own small,
/// blocking client (calls are short and strictly one at a time); it can move onto
/// `HotColdProtocol`'s client once that exists.
///
/// ```swift
/// let link = DaemonLink(path: "/run/hotcold/hotcold.sock")
/// let reply = try link.call(#"{"cmd":"sync","op":"pending"}"#)
/// ```
public final class DaemonLink: @unchecked Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let path: String
    /// Seconds to wait for a reply.
    public let timeout: Double
    /// The longest reply line accepted (a catalogue report with many skipped rows is the largest).
    public let maxLine = 8 << 20
    private let lock = NSLock()
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    public init(path: String, timeout: Double = 60) {
        self.path = path
        self.timeout = timeout
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Sends `line` and returns the reply line (`SYNC…` or `ERROR…`).
    public func call(_ line: String) throws(Failure) -> String {
        lock.lock()
        defer { lock.unlock() }
        do {
            if fd < 0 { try connectLocked() }
            try writeAll(Array((line + "\n").utf8))
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let reply = try readLine(deadline: deadline)
                if reply.hasPrefix(#"{"class":"SYNC""#) || reply.hasPrefix(#"{"class":"ERROR""#) { return reply }
            }
        } catch {
            closeLocked()   // a late reply must never answer the next call
            throw error
        }
    }

    public func close() {
        lock.lock()
        closeLocked()
        lock.unlock()
    }

    private func closeLocked() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        buffer.removeAll()
    }

    private func connectLocked() throws(Failure) {
        fd = try Self.connect(path)
    }

    /// A connected stream socket to `path`.
    static func connect(_ path: String) throws(Failure) -> Int32 {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw Failure(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            Glibc.close(s)
            throw Failure(description: "the socket path \(path) is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(s)
            throw Failure(description: "cannot connect to the daemon at \(path): \(reason)")
        }
        return s
    }

    private func writeAll(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "the daemon at \(path) closed the connection (\(String(cString: strerror(errno))))")
            }
            sent += n
        }
    }

    /// The next complete line, without its newline.
    private func readLine(deadline: Date) throws(Failure) -> String {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            guard buffer.count <= maxLine else { throw Failure(description: "a reply from \(path) is longer than \(maxLine) bytes") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "no reply from the daemon at \(path) within \(Int(timeout)) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left * 1000, 1000).rounded(.up)))
            if r < 0 && errno != EINTR { throw Failure(description: "poll: \(String(cString: strerror(errno)))") }
            if r <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { throw Failure(description: "the daemon at \(path) closed the connection") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// For ``OutboxWatcher``: the next line with a deadline, on a connection it owns.
    static func readLine(fd: Int32, buffer: inout [UInt8], maxLine: Int, waitMs: Int32) -> ReadResult {
        if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<nl], as: UTF8.self)
            buffer.removeSubrange(...nl)
            return .line(line)
        }
        if buffer.count > maxLine { return .closed }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, waitMs)
        if r <= 0 { return .idle }
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return .idle }
        guard n > 0 else { return .closed }
        buffer.append(contentsOf: chunk[..<n])
        return .idle
    }

    enum ReadResult { case line(String), idle, closed }
}
