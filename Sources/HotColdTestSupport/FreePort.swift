import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Free loopback ports for test servers, chosen below the kernel's ephemeral range.
///
/// A port is tried by binding it on 127.0.0.1 and closing it again, so another process could
/// take it before the test's server binds it. Not from the ephemeral range (32768–60999 here),
/// because that is where every outgoing connection's local port comes from: with the whole
/// suite running, a gpsd told to listen on a port the kernel had just handed to some client's
/// connection could not bind it. Below that range only servers that chose their port take one,
/// and within this process no port is handed out twice.
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

    private static let handedOut = Mutex<Set<UInt16>>([])

    /// The ports below the ephemeral range that tests may use.
    static let range: ClosedRange<UInt16> = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let low = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { UInt16($0) } ?? 32768
        return 10_000...max(10_001, low - 1)
    }()

    private static func find(type: Int32) throws -> UInt16 {
        for _ in 0..<500 {
            let port = UInt16.random(in: range)
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if try bind(port, type: type) != nil { return port }
        }
        // The kernel's choice, as a last resort.
        guard let port = try bind(0, type: type) else { throw Failure(description: "no free port") }
        return port
    }

    /// Binds `port` (0: any) on 127.0.0.1 and closes it again: the port bound, nil when taken.
    private static func bind(_ port: UInt16, type: Int32) throws -> UInt16? {
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }
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
