#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client of hotcoldd's socket: connect, read the greeting, send typed requests,
/// read typed replies and events, every read under a deadline. Used by `hotcold`, the
/// bridges and the tests.
///
/// ```swift
/// let c = try LineClient(path: "/run/hotcold/hotcold.sock")
/// let status = try c.call(.status, expecting: StatusReply.self)
/// try c.send(.watch(WatchRequest(classes: ["ARRIVED"])))
/// _ = try c.reply(WatchReply.self)
/// while let e = try c.nextEvent(timeout: 3600) { print(e.line) }
/// ```
public final class LineClient: @unchecked Sendable {
    public let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// The peer closed the connection (seen by a read).
    private(set) var sawEOF = false
    /// Replies longer than this are refused rather than buffered without end.
    public var maxLineBytes = 64 << 20

    /// The socket path: `option`, else `$HOTCOLD_SOCKET`, else the daemon's default.
    public static func defaultPath(_ option: String?) -> String {
        if let option { return option }
        if let env = ProcessInfo.processInfo.environment["HOTCOLD_SOCKET"], !env.isEmpty { return env }
        return "/run/hotcold/hotcold.sock"
    }

    /// Connects.
    public init(path: String) throws(ClientError) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: Self.errno()) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw .cannotConnect(path: path, reason: "socket path too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            var why = Self.errno()
            close(fd)
            // "Connection refused" says nothing when the path is no socket at all.
            var st = stat()
            if stat(path, &st) == 0 {
                switch st.st_mode & S_IFMT {
                case S_IFDIR: why = "that is a directory, not hotcoldd's socket (the socket is a file in it, such as \(path)/hotcold.sock)"
                case S_IFSOCK: break
                default: why = "that is a file, not a socket"
                }
            }
            throw .cannotConnect(path: path, reason: why)
        }
    }

    deinit { close(fd) }

    static func errno() -> String { String(cString: strerror(Glibc.errno)) }

    // MARK: - Raw bytes

    /// Sends raw bytes (a line needs its own "\n").
    public func send(bytes: [UInt8]) throws(ClientError) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw .lost(path: path, reason: Self.errno())
            }
            off += n
        }
    }

    /// Sends one line (a newline is added).
    public func send(_ line: String) throws(ClientError) { try send(bytes: Array((line + "\n").utf8)) }

    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// The next line within `timeout` seconds; nil when the peer closed. Throws on timeout.
    public func readLine(timeout: Double = 5) throws(ClientError) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, min(timeout, 1e6)) * 1000))
        while true {
            if let line = takeLine() { return line }
            if sawEOF { return nil }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .timeout(path: path, waitingFor: "line", seconds: timeout) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(min(left / .milliseconds(1), 1000).rounded(.up))
            if poll(&p, 1, max(ms, 1)) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[..<n])
                if buffer.count - start > maxLineBytes, !buffer[start...].contains(10) {
                    throw .badReply(ProtocolError(.tooLarge, command: nil, "a reply line over \(maxLineBytes) bytes"))
                }
            } else if n == 0 {
                sawEOF = true
            } else {
                let e = Glibc.errno
                if e == EINTR || e == EAGAIN { continue }
                if e == ECONNRESET { sawEOF = true; continue }
                throw .lost(path: path, reason: Self.errno())
            }
        }
    }

    private func takeLine() -> String? {
        guard let nl = buffer[start...].firstIndex(of: 10) else {
            if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
            return nil
        }
        let line = String(decoding: buffer[start..<nl], as: UTF8.self)
        start = nl + 1
        if start > 1 << 20 || start == buffer.count {
            buffer.removeSubrange(..<start)
            start = 0
        }
        return line
    }

    /// The next line, or nil at end of stream or when `timeout` passes (never throws).
    func nextLine(timeout: Duration = .seconds(20)) -> String? {
        let s = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return (try? readLine(timeout: s)) ?? nil
    }

    /// Every line until end of stream (or the deadline).
    func readToEnd(timeout: Duration = .seconds(30)) -> [String] {
        var lines: [String] = []
        let deadline = ContinuousClock.now + timeout
        while let l = nextLine(timeout: max(.zero, deadline - ContinuousClock.now)) { lines.append(l) }
        return lines
    }

    // MARK: - Typed

    public func send(_ request: Request) throws(ClientError) { try send(request.line) }

    /// Reads until a line of class `cls` and returns it, skipping events, the greeting and
    /// other replies; an `ERROR` throws `.refused`.
    public func line(ofClass cls: String, timeout: Double = 10) throws(ClientError) -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, min(timeout, 1e6)) * 1000))
        while true {
            let left = deadline - ContinuousClock.now
            let s = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            guard s > 0 else { throw .timeout(path: path, waitingFor: cls, seconds: timeout) }
            let line: String?
            do { line = try readLine(timeout: s) } catch {
                if case .timeout = error { throw .timeout(path: path, waitingFor: cls, seconds: timeout) }
                throw error
            }
            guard let line else { throw .closed(path: path, waitingFor: cls) }
            // Classes we do not know are skipped (a newer daemon may send them); a line that is
            // not a JSON object with a class is not the protocol at all.
            guard let c = WireCoding.className(of: line) else {
                throw .badReply(ProtocolError(.badJSON, command: nil,
                                              "a line that is not a JSON object with a class: \(line.prefix(80).debugDescription)"))
            }
            if c == cls { return line }
            if c == ErrorReply.wireClass {
                do { _ = try WireCoding.decode(ErrorReply.self, from: line) } catch { throw .badReply(error) }
                if let e = try? WireCoding.decoder().decode(ErrorReply.self, from: Data(line.utf8)) { throw .refused(e.error) }
            }
        }
    }

    /// The next reply of type `M`.
    public func reply<M: FixedClassMessage>(_ type: M.Type, timeout: Double = 10) throws(ClientError) -> M {
        let l = try line(ofClass: M.wireClass, timeout: timeout)
        do { return try WireCoding.decode(M.self, from: l) } catch { throw .badReply(error) }
    }

    /// The next result reply of class `cls`, its result decoded as `R`.
    func result<R: Codable & Sendable>(_ cls: ResultClass, as type: R.Type, timeout: Double = 60) throws(ClientError) -> ResultReply<R> {
        let l = try line(ofClass: cls.rawValue, timeout: timeout)
        do { return try WireCoding.decode(ResultReply<R>.self, class: cls.rawValue, from: l) } catch { throw .badReply(error) }
    }

    /// Sends `request` and reads its reply.
    public func call<M: FixedClassMessage>(_ request: Request, expecting type: M.Type, timeout: Double = 10) throws(ClientError) -> M {
        try send(request)
        return try reply(type, timeout: timeout)
    }

    /// Sends `request` and reads its result reply.
    public func call<R: Codable & Sendable>(_ request: Request, result cls: ResultClass, as type: R.Type,
                                            timeout: Double = 60) throws(ClientError) -> R {
        try send(request)
        return try result(cls, as: type, timeout: timeout).result
    }

    /// The next event (other lines skipped); nil when the daemon closed the connection.
    func nextEvent(timeout: Double = 3600) throws(ClientError) -> (EventMessage, String)? {
        while true {
            guard let line = try readLine(timeout: timeout) else { return nil }
            let c = WireCoding.className(of: line)
            if c == ErrorReply.wireClass, let e = try? WireCoding.decoder().decode(ErrorReply.self, from: Data(line.utf8)) {
                throw .refused(e.error)
            }
            do {
                if let e = try EventMessage.decode(line: line) { return (e, line) }
            } catch {
                throw .badReply(error)
            }
        }
    }

    // MARK: - Transfers

    /// Sends `data` as an upload in chunks and returns its id once the daemon has it all.
    /// `progress` is told the bytes the daemon has acknowledged after each chunk.
    public func upload(_ data: Data, purpose: UploadRequest.Purpose, timeout: Double = 30,
                       progress: ((Int) -> Void)? = nil) throws(ClientError) -> String {
        let begun = try call(.upload(UploadRequest(purpose: purpose, size: data.count)), expecting: UploadReply.self, timeout: timeout)
        let step = max(1, min(begun.chunkMax, Limits.chunkBytes))
        var offset = 0
        while offset < data.count {
            let end = min(offset + step, data.count)
            let part = data.subdata(in: data.startIndex + offset ..< data.startIndex + end)
            let r = try call(.chunk(ChunkRequest(upload: begun.id, offset: offset, data: part)),
                             expecting: UploadReply.self, timeout: timeout)
            guard r.received == end else {
                throw .badReply(ProtocolError(.badField, command: "chunk", field: "received", "expected \(end), got \(r.received)"))
            }
            offset = end
            progress?(end)
        }
        return begun.id
    }

    /// Fetches a prepared download of `size` bytes; `progress` is told the bytes received so far.
    public func download(id: String, size: Int, timeout: Double = 30,
                         progress: ((Int) -> Void)? = nil) throws(ClientError) -> Data {
        var out = Data()
        out.reserveCapacity(max(0, min(size, Limits.importBytes)))
        while true {
            let c = try call(.download(DownloadRequest(id: id, offset: out.count)), expecting: ChunkReply.self, timeout: timeout)
            guard c.offset == out.count else {
                throw .badReply(ProtocolError(.badField, command: "download", field: "offset", "expected \(out.count), got \(c.offset)"))
            }
            out.append(c.data)
            progress?(out.count)
            if c.eof || c.data.isEmpty { return out }
        }
    }
}
