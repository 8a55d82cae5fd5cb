import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb
#if canImport(Glibc)
import Glibc
#endif

/// A browser on the box itself, unpaired, reads as the local user it really is (named by the
/// kernel's socket table), never as hotcold-web's own user: with hotcold-web as root (as
/// `scripts/demo` runs it), a user outside the daemon socket's group reads nothing — neither
/// root's observations nor the car's position on `/events` — and a user in the group reads
/// their own records only.
@Suite("unpaired local readers are the users they are", .offCooperativePool, .serialized)
struct LocalReaderTests {
    /// One HTTP request from a process running as `user` (setpriv, python3): status and body.
    static func request(as user: UnixUser, port: Int, _ head: String, body: String = "", seconds: Double = 30) throws -> (Int, String) {
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(sys.stdin.buffer.read())
            s.settimeout(0.5)
            data, end = b"", time.time() + \(seconds)
            while time.time() < end:
                try:
                    c = s.recv(65536)
                except socket.timeout:
                    if b"event: status" in data: break
                    continue
                if not c: break
                data += c
                if b"event: status" in data: break
            sys.stdout.write(data.decode("utf-8", "replace"))
            """
        let request = head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                   UnixAccounts.asUser(user.name) + ["/usr/bin/python3", "-c", script], input: Data(request.utf8))
        let status = Int(r.stdout.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, r.stdout)
    }

    @Test("hotcold-web as root: an unpaired local user outside the socket's group gets no observations and no live position; one in the group reads only their own; root reads its own",
          .enabled(if: UnixAccounts.available), .timeLimit(.minutes(8)))
    func localUsersAreThemselves() async throws {
        let r = try await WebServerTests.Running()
        defer { r.stop() }
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let group = try accounts.group("hcw")
        let outsider = try accounts.user("hcwo")
        let member = try accounts.user("hcwm", groups: [group])
        // The daemon's socket as installed: root's, its group the readers', 0660.
        let gid = try #require(getgrnam(group)).pointee.gr_gid
        chown(r.daemon.socketPath, 0, gid)
        chmod(r.daemon.socketPath, 0o660)
        // Root notes an observation of its own through the daemon.
        let c = try r.daemon.connect()
        let observe = #"{"cmd":"store","op":"observe","classification":"bird","title":"ROOT-PRIVATE wren","date":"2026-03-01T10:00:00Z","lat":-30.27,"lon":153.13}"#
        try c.send(observe)
        _ = try c.line(ofClass: "STORE")
        let read = "POST /api/read HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\nContent-Type: application/json\r\n"
        let body = #"{"cmd":"observations"}"#
        let events = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\n"

        let (s1, out1) = try await onThread { try Self.request(as: outsider, port: r.port, read, body: body) }
        #expect(s1 == 401 && !out1.contains("ROOT-PRIVATE"), "an outsider read observations: \(s1) \(out1.suffix(300))")
        let (s2, out2) = try await onThread { try Self.request(as: outsider, port: r.port, events, seconds: 4) }
        #expect(s2 == 401 && !out2.contains("event: status") && !out2.contains("last_fix"), "an outsider followed the car: \(s2) \(out2.prefix(300))")
        let (s3, out3) = try await onThread { try Self.request(as: outsider, port: r.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\n") }
        #expect(s3 == 401 && out3.contains("not paired"), "\(s3)")

        let (s4, out4) = try await onThread { try Self.request(as: member, port: r.port, read, body: body) }
        #expect(s4 == 200 && out4.contains("OBSERVATIONS") && !out4.contains("ROOT-PRIVATE"), "a member reads as itself: \(s4) \(out4.suffix(300))")
        let (s5, out5) = try await onThread { try Self.request(as: member, port: r.port, events, seconds: 20) }
        #expect(s5 == 200 && out5.contains("event: status"), "a member follows the car: \(s5) \(out5.prefix(300))")
        let (s6, out6) = try await onThread { try Self.request(as: member, port: r.port, "GET /session HTTP/1.1\r\nHost: 127.0.0.1:\(r.port)\r\n") }
        #expect(s6 == 200 && out6.contains(#""access":"local""#) && out6.contains(member.name), "\(out6.suffix(200))")

        // Root (this test's user) reads its own observation through the page.
        let mine = try await RawHTTP.post(r.port, "/api/read", body: body, headers: ["Content-Type: application/json"])
        #expect(mine.status == 200 && mine.body.contains("ROOT-PRIVATE"), "\(mine.status)")
        // A client cannot claim a local user by sending the header itself.
        let forged = try await onThread {
            try Self.request(as: outsider, port: r.port, read + "X-Hotcold-Local-User: 0\r\n", body: body)
        }
        #expect(forged.0 == 401 && !forged.1.contains("ROOT-PRIVATE"), "\(forged.0)")
    }

    @Test("the kernel's socket table names the user of a loopback connection, by its exact endpoints")
    func socketTable() throws {
        // A listener and a connection of this process (root's): found, and only by the exact pair.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) } }
        listen(listener, 4)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
        let port = UInt16(bigEndian: addr.sin_port)
        let client = try Sockets.connect(port: Int(port))
        defer { close(client) }
        var mine = sockaddr_in()
        _ = withUnsafeMutablePointer(to: &mine) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &len) } }
        let loopback: [UInt8] = [127, 0, 0, 1]
        let peer = LoopbackPeer.Endpoint(address: loopback, port: UInt16(bigEndian: mine.sin_port))
        let server = LoopbackPeer.Endpoint(address: loopback, port: port)
        #expect(LoopbackPeer.uid(peer: peer, server: server) == geteuid())
        #expect(LoopbackPeer.uid(peer: server, server: LoopbackPeer.Endpoint(address: loopback, port: 1)) == nil)
        #expect(LoopbackPeer.uid(peer: LoopbackPeer.Endpoint(address: loopback, port: peer.port &+ 1), server: server) == nil)
        // Rows as the kernel prints them, IPv4 and IPv6 (a v4-mapped peer on a v6 listener).
        let v4 = Array("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:A000 0100007F:1F96 01 00000000:00000000 00:00000000 00000000  1001        0 1 1 0 20 4 30 10 -1\n".utf8)
        #expect(LoopbackPeer.find(in: v4, peer: .init(address: loopback, port: 0xA000), server: .init(address: loopback, port: 8086)) == 1001)
        let v6 = Array("  sl  local_address                         remote_address                        st\n   1: 0000000000000000FFFF00000100007F:A001 0000000000000000FFFF00000100007F:1F96 01 00000000:00000000 00:00000000 00000000  1002 0 5\n".utf8)
        #expect(LoopbackPeer.find(in: v6, peer: .init(address: loopback, port: 0xA001), server: .init(address: loopback, port: 8086)) == 1002)
    }
}
