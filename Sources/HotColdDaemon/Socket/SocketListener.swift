import Foundation
import Glibc
import Synchronization

/// The listening descriptor of a `SocketServer`: bound here, or adopted from socket activation.
final class SocketListener: Sendable {
    let fd: Int32
    /// The socket's path (`getsockname`), nil when unnamed.
    let path: String?
    /// Whether this process created the socket file (and so removes it on close).
    let created: Bool
    private let identity: (dev: UInt64, ino: UInt64)?
    private let closed = Atomic<Bool>(false)

    private init(fd: Int32, path: String?, created: Bool, identity: (UInt64, UInt64)?) {
        self.fd = fd
        self.path = path
        self.created = created
        self.identity = identity
    }

    static func bind(path: String, mode: UInt32, group: String?) throws -> SocketListener {
        guard !path.hasPrefix("@"), let address = UnixSocketAddress(path) else {
            throw SocketServerError("socket path \(path): not a usable filesystem path (at most 107 bytes)")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) {
            do {
                try FileManager.default.createDirectory(
                    atPath: parent, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o755])
            } catch {
                throw SocketServerError("socket path \(path): cannot create directory \(parent): \(error.localizedDescription)")
            }
        }
        try removeStale(path)

        // Bound, given its mode and listening under a private name first, then linked into
        // place: a client that sees the file can connect at once (no window between bind and
        // listen), and link(2) never replaces a file another server put there meanwhile.
        let name = (path as NSString).lastPathComponent
        let staging = (parent.isEmpty ? "" : parent + "/") + ".\(name).\(getpid()).new"
        let stagingAddress = UnixSocketAddress(staging)
        let bindPath = stagingAddress == nil ? path : staging
        if stagingAddress != nil { unlink(staging) }

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketServerError.system("socket path \(path): socket()") }
        var ok = false
        defer { if !ok { Glibc.close(fd) } }
        let rc = (stagingAddress ?? address).withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else { throw SocketServerError.system("socket path \(path): bind") }
        defer { if stagingAddress != nil || !ok { unlink(bindPath) } }
        // Connecting needs write permission on the file, so set it before anyone can connect.
        guard chmod(bindPath, mode_t(mode)) == 0 else { throw SocketServerError.system("socket path \(path): chmod") }
        if let group {
            guard let gid = UInt32(group) ?? PeerCredentials.gid(ofGroup: group) else {
                throw SocketServerError("socket path \(path): no group named \(group)")
            }
            guard chown(bindPath, uid_t.max, gid) == 0 else { throw SocketServerError.system("socket path \(path): chown to group \(group)") }
        }
        guard listen(fd, SOMAXCONN) == 0 else { throw SocketServerError.system("socket path \(path): listen") }
        if stagingAddress != nil, link(staging, path) != 0 {
            if errno == EEXIST {
                throw SocketServerError("socket path \(path): another server is listening there", code: EADDRINUSE)
            }
            throw SocketServerError.system("socket path \(path): link")
        }
        var st = stat()
        let identity: (UInt64, UInt64)? = lstat(path, &st) == 0 ? (UInt64(st.st_dev), UInt64(st.st_ino)) : nil
        ok = true
        return SocketListener(fd: fd, path: path, created: true, identity: identity)
    }

    /// Refuses anything at `path` but a socket nobody listens on, which it removes.
    private static func removeStale(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw SocketServerError("socket path \(path): exists and is not a socket; not replacing it")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { throw SocketServerError.system("socket path \(path): socket()") }
        defer { Glibc.close(probe) }
        let rc = UnixSocketAddress(path)!.withSockaddr { connect(probe, $0, $1) }
        let err = errno
        if rc == 0 || err == EAGAIN || err == EINPROGRESS {
            throw SocketServerError("socket path \(path): another server is listening there", code: EADDRINUSE)
        }
        guard err == ECONNREFUSED || err == ENOENT else {
            throw SocketServerError.system("socket path \(path): probing the existing socket", err)
        }
        if unlink(path) != 0, errno != ENOENT {
            throw SocketServerError.system("socket path \(path): removing the stale socket")
        }
    }

    static func adopt(fd: Int32) throws -> SocketListener {
        func option(_ name: Int32) -> Int32? {
            var v: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &v, &len) == 0 ? v : nil
        }
        guard let domain = option(SO_DOMAIN), domain == AF_UNIX,
              let type = option(SO_TYPE), type == Int32(SOCK_STREAM.rawValue) else {
            throw SocketServerError("file descriptor \(fd): not a Unix stream socket")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw SocketServerError("file descriptor \(fd): socket is not listening")
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0,
              fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
            throw SocketServerError.system("file descriptor \(fd): fcntl")
        }
        return SocketListener(fd: fd, path: UnixSocketAddress.boundPath(of: fd), created: false, identity: nil)
    }

    /// Closes the descriptor and removes the socket file if this process created it and it
    /// is still the same file. Idempotent.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.close(fd)
        if created, let path, let identity {
            var st = stat()
            if lstat(path, &st) == 0, UInt64(st.st_dev) == identity.dev, UInt64(st.st_ino) == identity.ino {
                unlink(path)
            }
        }
    }
}
