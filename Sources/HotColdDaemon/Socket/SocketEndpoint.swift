/// Where a `SocketServer` listens.
///
/// ```swift
/// let endpoint: SocketEndpoint = try SocketActivation.listenFDs().first.map { .adopted(fd: $0.fd) }
///     ?? .path("/run/hotcold/hotcold.sock", mode: 0o660)
/// ```
enum SocketEndpoint: Sendable, Equatable {
    /// Bind this filesystem path: the parent directory is created (0755) when missing, a stale
    /// socket file is removed (a live one, or any other kind of file, is an error), the file gets
    /// `mode` and, when `group` is given, that group. The server removes the file on shutdown.
    case path(String, mode: UInt32 = 0o660, group: String? = nil)
    /// An already-listening `AF_UNIX` stream socket, for example from systemd socket activation.
    /// The server takes ownership of the descriptor; it never removes the socket file.
    case adopted(fd: Int32)
}
