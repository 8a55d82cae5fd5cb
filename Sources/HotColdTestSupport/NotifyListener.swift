import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plays systemd's side of `NOTIFY_SOCKET`: a datagram socket collecting what the daemon says.
public final class NotifyListener: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    public private(set) var messages: [String] = []

    public init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { throw TestFailure("bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Collects datagrams until one contains `needle` (a line such as `READY=1`), or times out.
    @discardableResult
    public func wait(for needle: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if messages.contains(where: { $0.split(separator: "\n").contains { $0.hasPrefix(needle) } }) { return true }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000)) > 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { messages.append(String(decoding: buf[..<n], as: UTF8.self)) }
        }
    }
}
