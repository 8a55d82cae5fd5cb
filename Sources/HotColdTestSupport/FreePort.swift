import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free loopback ports for test servers: bind port 0 on 127.0.0.1, read the port back, close.
///
/// Another process could take the port between this call and its use; with the kernel handing
/// out ephemeral ports in turn that is rare enough for tests.
///
/// ```swift
/// let tcp = try FreePort.tcp()   // for gpsd -S
/// let udp = try FreePort.udp()   // for gpsd's udp:// source
/// ```
public enum FreePort {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func tcp() throws -> UInt16 { try find(type: Int32(SOCK_STREAM.rawValue)) }
    public static func udp() throws -> UInt16 { try find(type: Int32(SOCK_DGRAM.rawValue)) }

    private static func find(type: Int32) throws -> UInt16 {
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard named == 0 else { throw Failure(description: "getsockname: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func isListeningTCP(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// True when some process has a UDP socket bound to `port` (from /proc/net/udp and udp6).
    public static func isBoundUDP(_ port: UInt16) -> Bool {
        let hex = String(format: ":%04X ", port)
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                // "  sl  local_address rem_address ...": the local address is the second field.
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count > 1, (fields[1] + " ").hasSuffix(hex) { return true }
            }
        }
        return false
    }
}
