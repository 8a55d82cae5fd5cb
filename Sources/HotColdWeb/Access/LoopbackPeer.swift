#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Which local user opened a loopback TCP connection, by the kernel's own table of sockets
/// (`/proc/self/net/tcp` and `tcp6`: each socket's addresses and the uid of the process that
/// made it). hotcold-web listens on TCP, where `SO_PEERCRED` says nothing; on loopback the
/// other end is a socket on this machine, so its row in that table names its user.
///
/// Why this table: netlink's `sock_diag` would answer the same for one socket, but the unit
/// allows no `AF_NETLINK`; `/proc/self/net` stays readable under `ProcSubset=pid` (it is the
/// process's own directory). The row is found by the exact pair of endpoints — the peer's
/// address and port as its local end, hotcold-web's as its remote end — so another socket
/// can never be taken for it. A connection forwarded by a relay on this machine (ssh -L,
/// socat) reads as the relay's user, who chose to forward it.
///
/// Bounded: at most `tableLimit` bytes of each table are read; a machine with more sockets
/// than that leaves the peer unknown (and an unknown local reader reads nothing).
enum LoopbackPeer {
    /// One end of a TCP connection: the address as 16 bytes (IPv4 as `::ffff:a.b.c.d`) and the port.
    struct Endpoint: Equatable, Sendable {
        var address: [UInt8]
        var port: UInt16

        init(address: [UInt8], port: UInt16) {
            self.address = address.count == 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + address : address
            self.port = port
        }

        /// From NIO's view of a connection's end; nil for anything but IP.
        init?(_ socketAddress: SocketAddress?) {
            guard let a = socketAddress, let port = a.port, let text = a.ipAddress else { return nil }
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                self.init(address: withUnsafeBytes(of: &v4) { Array($0) }, port: UInt16(port))
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                self.init(address: withUnsafeBytes(of: &v6) { Array($0) }, port: UInt16(port))
            } else {
                return nil
            }
        }
    }

    static let tables = ["/proc/self/net/tcp", "/proc/self/net/tcp6"]
    static let tableLimit = 8 << 20

    /// The uid owning the socket whose local end is `peer` and remote end is `server`; nil
    /// when no table has it (or a table could not be read within its bound).
    static func uid(peer: Endpoint, server: Endpoint, tables: [String] = tables) -> UInt32? {
        for table in tables {
            guard let text = read(table) else { continue }
            if let uid = find(in: text, peer: peer, server: server) { return uid }
        }
        return nil
    }

    /// The row for that pair of endpoints in one table's text.
    static func find(in text: [UInt8], peer: Endpoint, server: Endpoint) -> UInt32? {
        var lines = text.split(separator: UInt8(ascii: "\n")).makeIterator()
        _ = lines.next()    // the heading
        while let line = lines.next() {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 8, omittingEmptySubsequences: true)
            // sl, local, remote, st, tx:rx, tr:when, retrnsmt, uid, …
            guard fields.count >= 8, let local = endpoint(fields[1]), local == peer,
                  let remote = endpoint(fields[2]), remote == server else { continue }
            return UInt32(String(decoding: fields[7], as: UTF8.self))
        }
        return nil
    }

    /// `0100007F:1F90` (IPv4) or 32 hex digits and a port (IPv6). The kernel prints each 32-bit
    /// word of the address as the number its bytes make in this machine's order, so reading
    /// the word back the same way gives the bytes in network order.
    static func endpoint(_ field: ArraySlice<UInt8>) -> Endpoint? {
        guard let colon = field.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let hex = field[field.startIndex..<colon]
        guard hex.count == 8 || hex.count == 32, let port = UInt16(String(decoding: field[(colon + 1)...], as: UTF8.self), radix: 16) else {
            return nil
        }
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            guard let word = UInt32(String(decoding: hex[i..<(i + 8)], as: UTF8.self), radix: 16) else { return nil }
            withUnsafeBytes(of: word) { bytes += $0 }
            i += 8
        }
        return Endpoint(address: bytes, port: port)
    }

    /// A /proc table's text (its size reads as 0: read until the end), at most `tableLimit` bytes.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return out }
            out += chunk[..<n]
            if out.count > tableLimit { return nil }
        }
    }
}
