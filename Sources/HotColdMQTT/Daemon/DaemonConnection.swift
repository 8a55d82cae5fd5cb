import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One connection to the daemon's Unix socket, read as JSON lines with a timeout.
///
/// Lines are capped (`maximumLine`): a longer one is skipped whole and reported, so a
/// misbehaving peer cannot make the bridge allocate without bound.
final class DaemonConnection {
    enum Read: Equatable {
        case line(String)
        case timeout
        case closed(String)
        case overlong(Int)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let maximumLine = 256 * 1024

    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var skipping = false
    private var skipped = 0

    init(path: String) throws(Failure) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw Failure(description: "socket path \(path) is too long")
        }
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

    /// Sends one line (a newline is added).
    func send(_ line: String) throws(Failure) {
        let bytes = Array((line + "\n").utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send to \(path): \(String(cString: strerror(errno)))")
            }
            off += n
        }
    }

    /// The next complete line, waiting at most `timeout` seconds.
    func readLine(timeout: Double) -> Read {
        if let r = takeLine() { return r }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, min(timeout, 60)) * 1000)
        let ready = poll(&p, 1, ms)
        if ready == 0 || (ready < 0 && errno == EINTR) { return .timeout }
        if ready < 0 { return .closed("poll: \(String(cString: strerror(errno)))") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return .closed("the daemon closed the connection") }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return .timeout }
            return .closed("recv: \(String(cString: strerror(errno)))")
        }
        buffer.append(contentsOf: chunk[..<n])
        return takeLine() ?? .timeout
    }

    private func takeLine() -> Read? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                if skipping {
                    let total = skipped + nl
                    buffer.removeSubrange(...nl)
                    skipping = false
                    skipped = 0
                    return .overlong(total)
                }
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return .line(line)
            }
            if buffer.count > Self.maximumLine {
                skipping = true
                skipped += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            return nil
        }
    }
}
