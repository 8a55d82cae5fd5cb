import Glibc

/// One descriptor passed by systemd socket activation.
struct ActivatedSocket: Sendable, Equatable {
    var fd: Int32
    /// From `LISTEN_FDNAMES` (`FileDescriptorName=`, by default the socket unit's name);
    /// `"unknown"` when not given.
    var name: String

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    /// The bound path of an `AF_UNIX` socket (`@name` if abstract), nil for other kinds.
    var unixPath: String? { UnixSocketAddress.boundPath(of: fd) }

    /// Whether it is a listening `AF_UNIX` stream socket, the kind `SocketServer` adopts.
    var isUnixStreamListener: Bool {
        func option(_ name: Int32) -> Int32? {
            var v: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &v, &len) == 0 ? v : nil
        }
        return option(SO_DOMAIN) == AF_UNIX && option(SO_TYPE) == Int32(SOCK_STREAM.rawValue)
            && option(SO_ACCEPTCONN) == 1
    }
}
