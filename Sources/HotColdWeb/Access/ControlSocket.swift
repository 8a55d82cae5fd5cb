#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol
import HotColdUnix
#if canImport(Glibc)
import Glibc
#endif

/// hotcold-web's own Unix socket for `hotcold web pair`: the token is minted here, in the
/// process that checks it, and handed only to the local user who asked, whom the kernel names
/// (SO_PEERCRED). This beats a token file another process drops into the state directory:
/// that would need the pairing user to write into hotcold-web's private state (so either a
/// shared writable directory or root), and the new token would take effect only after a
/// re-read; here there is no shared file, no re-read, and the pairing user learns at once
/// whether the device may write.
///
/// Anyone may connect (mode 0666); who may *pair* is decided per connection: root, a writer
/// by the daemon's rule, or a member of the group that owns the daemon's socket (someone who
/// could read the hunt anyway). Only writers' devices may write. One request per connection,
/// a line of at most 4 KiB, read within 5 s.
public final class ControlSocket: @unchecked Sendable {
    public let path: String
    let store: TokenStore
    let rule: WriterRule
    let daemonSocket: String
    let tokenDays: Int
    let linkMinutes: Int
    let baseURL: String
    private var fd: Int32 = -1

    public init(path: String, store: TokenStore, rule: WriterRule, daemonSocket: String, tokenDays: Int, linkMinutes: Int = 10, baseURL: String) {
        self.path = path
        self.store = store
        self.rule = rule
        self.daemonSocket = daemonSocket
        self.tokenDays = tokenDays
        self.linkMinutes = linkMinutes
        self.baseURL = baseURL
    }

    /// Binds (replacing a stale socket file) and serves on a thread of its own.
    public func start() throws(ControlError) {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlError("control socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw ControlError("control socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, listen(fd, 16) == 0 else {
            throw ControlError("cannot listen on \(path): \(String(cString: strerror(errno)))")
        }
        chmod(path, 0o666)
        do {
            try BlockingThread.start(name: "hotcold-web control") { [self] in serve() }
        } catch {
            throw ControlError("control socket: \(error)")
        }
    }

    private func serve() {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            handle(c)
            close(c)
        }
    }

    private func handle(_ c: Int32) {
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard let peer = PeerCredentials(socket: c) else {
            return reply(c, ErrorReply(ProtocolError(.internal, command: nil, "no peer credentials")))
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !buffer.contains(10) && buffer.count <= 4096 {
            let n = chunk.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[..<n])
        }
        guard let nl = buffer.firstIndex(of: 10), nl <= 4096 else {
            return reply(c, ErrorReply(ProtocolError(.badJSON, command: nil, "expected one JSON line such as {\"cmd\":\"pair\",\"name\":\"phone\"}")))
        }
        switch WebControlRequest.decode(line: String(decoding: buffer[..<nl], as: UTF8.self)) {
        case .success(let req): reply(c, answer(req, peer: peer))
        case .failure(let e): reply(c, ErrorReply(e))
        }
    }

    /// The reply to one request from `peer` (tested directly): a PAIRED, DEVICES or REVOKED, or
    /// an ERROR whose code says why (`not_allowed`, `internal`).
    func answer(_ req: WebControlRequest, peer: PeerCredentials) -> any WireMessage {
        func refuse(_ code: ErrorCode, _ message: String) -> ErrorReply {
            ErrorReply(ProtocolError(code, command: req.command, message))
        }
        let writer = rule.isWriter(peer)
        guard writer || mayRead(peer) else {
            return refuse(.notAllowed, "\(peer.userName) may not read the daemon's socket \(daemonSocket), so may not pair a device")
        }
        switch req {
        case .pair(let name):
            do {
                let (now, wallNow) = (BootClock.now(), Date())
                let d = try store.pair(name: name, uid: peer.uid, user: peer.userName, writer: writer, days: tokenDays,
                                       linkMinutes: linkMinutes, now: now, wallNow: wallNow)
                let link = d.link ?? ""
                let url = "\(baseURL)/pair?t=\(link)"
                let qr = (try? QRCode(text: url)).map { QRTerminal.lines($0) } ?? []
                // The dates shown are the wall clock's now plus what is left on the boot clock.
                return WebPairedReply(name: d.name, user: d.user, writer: d.writer, expires: d.expires(at: now, wallNow: wallNow),
                                      url: url, token: link, linkExpires: d.linkExpires(at: now, wallNow: wallNow), qr: qr)
            } catch {
                return refuse(.internal, error.description)
            }
        case .list:
            let (now, wallNow) = (BootClock.now(), Date())
            return WebDevicesReply(devices: store.all.filter { peer.uid == 0 || $0.uid == peer.uid }
                .map { .init(name: $0.name, user: $0.user, writer: $0.writer, expires: $0.expires(at: now, wallNow: wallNow)) })
        case .revoke(let name):
            guard peer.uid == 0 || store.all.filter({ $0.name == name }).allSatisfy({ $0.uid == peer.uid }) else {
                return refuse(.notAllowed, "\(name) was paired by another user")
            }
            do { return WebRevokedReply(count: try store.revoke(name: name)) } catch { return refuse(.internal, error.description) }
        }
    }

    /// Could `peer` open the daemon's socket (its owner, or in its group)?
    func mayRead(_ peer: PeerCredentials) -> Bool {
        var st = stat()
        guard stat(daemonSocket, &st) == 0 else { return false }
        return peer.uid == st.st_uid || peer.gid == st.st_gid || peer.groups.contains(st.st_gid)
    }

    private func reply(_ c: Int32, _ value: any WireMessage) {
        let bytes = Array((WireCoding.line(value) + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
