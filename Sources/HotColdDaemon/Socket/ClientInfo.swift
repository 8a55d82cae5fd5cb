import Foundation
import HotColdStore

/// Who is on the other end of one socket connection: the peer credentials the kernel
/// reported at `accept` (`SO_PEERCRED` and `SO_PEERGROUPS`), and the user name they resolve
/// to, looked up once per connection off the socket's loop.
///
/// The credentials are those of the process that called `connect(2)`, captured once; they
/// do not change if that process later changes its identity or hands the socket on. Groups
/// are the process's real ones: a user who was added to a group after logging in, or whose
/// process dropped its groups, is judged by what the process holds, not by the group database.
///
/// ```swift
/// func handle(line: String, from client: ClientInfo) -> [String] {
///     print("\(client.recordedName) (pid \(client.pid)) says \(line)")
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
    /// The peer's supplementary groups at connect time, from the kernel.
    let groups: [UInt32]
    /// The passwd name of `uid`; nil for a uid with no passwd entry (or whose name belongs
    /// to another uid).
    public let userName: String?
    let connectedAt: Date
    /// The proxy's user when this identity was claimed with `act_for` (the uid, groups and
    /// name are then the account's, from the user database); nil for the peer itself. A
    /// proxied identity is never the daemon's administrator.
    let via: String?

    init(id: ClientID, pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = [], userName: String?,
                connectedAt: Date = Date(), via: String? = nil) {
        self.via = via
        self.id = id
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.userName = userName
        self.connectedAt = connectedAt
    }

    /// The name this client's changes are recorded under: its user name, or `#UID` for a uid
    /// without one (never a valid user name, so never another user's records).
    var recordedName: String { userName ?? CurrentUser.unknownUserName(uid: uid) }

    public var description: String {
        "\(id) pid \(pid) uid \(uid)\(userName.map { " (\($0))" } ?? "") gid \(gid)\(via.map { " via \($0)" } ?? "")"
    }
}
