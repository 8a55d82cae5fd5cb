import Foundation

/// Who is on the other end of one socket connection: the peer credentials the kernel
/// reported at `accept` (`SO_PEERCRED`), resolved to a user name when the system knows it.
///
/// The credentials are those of the process that called `connect(2)`, captured once; they
/// do not change if that process later changes its identity or hands the socket on.
///
/// ```swift
/// func handle(line: String, from client: ClientInfo) -> [String] {
///     print("\(client.userName ?? "uid \(client.uid)") (pid \(client.pid)) says \(line)")
///     return []
/// }
/// ```
public struct ClientInfo: Sendable, Hashable, CustomStringConvertible {
    public let id: ClientID
    /// The peer's process id (0 when unknown).
    public let pid: Int32
    public let uid: UInt32
    /// The peer's effective primary group at connect time.
    public let gid: UInt32
    /// `getpwuid_r(uid)`; nil for a uid with no passwd entry.
    public let userName: String?
    public let connectedAt: Date

    public init(id: ClientID, pid: Int32, uid: UInt32, gid: UInt32, userName: String?,
                connectedAt: Date = Date()) {
        self.id = id
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.userName = userName
        self.connectedAt = connectedAt
    }

    public var description: String {
        "\(id) pid \(pid) uid \(uid)\(userName.map { " (\($0))" } ?? "") gid \(gid)"
    }
}
