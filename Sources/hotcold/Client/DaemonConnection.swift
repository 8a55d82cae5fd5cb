import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to hotcoldd's socket: send a command line, read reply lines.
final class DaemonConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    let path: String

    /// The socket path: `--socket`, else `$HOTCOLD_SOCKET`, else the daemon's default.
    static func defaultPath(_ option: String?) -> String {
        option ?? ProcessInfo.processInfo.environment["HOTCOLD_SOCKET"] ?? "/run/hotcold/hotcold.sock"
    }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw CLIError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CLIError("cannot reach hotcoldd at \(path): \(why) (is it running? --socket PATH)", code: 69)
        }
    }

    deinit { close(fd) }

    func send(_ line: String) throws {
        let data = Array((line + "\n").utf8)
        var off = 0
        while off < data.count {
            let n = data[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError("lost hotcoldd at \(path): \(String(cString: strerror(errno)))", code: 69)
            }
            off += n
        }
    }

    /// The next line, or nil when the daemon closed the connection.
    func readLine() throws -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError("lost hotcoldd at \(path): \(String(cString: strerror(errno)))", code: 69)
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Reads lines until one of class `cls` (skipping the greeting and events); ERROR throws.
    func reply(_ cls: String) throws -> String {
        while let line = try readLine() {
            let c = Self.className(line)
            if c == cls { return line }
            if c == "ERROR" { throw CLIError("hotcoldd: \(Self.field(line, "message") ?? line)") }
        }
        throw CLIError("hotcoldd closed the connection before answering", code: 69)
    }

    static func className(_ line: String) -> String? { field(line, "class") }

    static func field(_ line: String, _ key: String) -> String? {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return obj[key] as? String
    }
}
