/// Decides whether a client may change daemon state, from its peer credentials.
///
/// Root and the daemon's own uid are always allowed. Otherwise the client's user must be in
/// `allowedUsers` (names, or decimal uids), or one of its groups — the primary group the kernel
/// reported at connect, plus the user's supplementary groups from the group database
/// (`getgrouplist`) — must be in `allowedGroups` (names, or decimal gids).
///
/// ```swift
/// let policy = PeerAuthorisation(allowedUsers: ["alice"], allowedGroups: ["hotcold"])
/// if !policy.isAuthorised(client) { return [error("hunt: read-only client (uid 1001)")] }
/// ```
public struct PeerAuthorisation: Sendable {
    public var allowedUsers: [String]
    public var allowedGroups: [String]
    /// The daemon's own uid (defaults to `getuid()`), always allowed.
    public var ownUID: UInt32

    public init(allowedUsers: [String] = [], allowedGroups: [String] = [], ownUID: UInt32 = getuid()) {
        self.allowedUsers = allowedUsers
        self.allowedGroups = allowedGroups
        self.ownUID = ownUID
    }

    public func isAuthorised(_ client: ClientInfo) -> Bool {
        if client.uid == 0 || client.uid == ownUID { return true }
        for u in allowedUsers {
            if let n = UInt32(u) {
                if n == client.uid { return true }
            } else if u == client.userName || PeerCredentials.uid(ofUser: u) == client.uid {
                return true
            }
        }
        let wanted = Set(allowedGroups.compactMap { UInt32($0) ?? PeerCredentials.gid(ofGroup: $0) })
        guard !wanted.isEmpty else { return false }
        if wanted.contains(client.gid) { return true }
        if let name = client.userName {
            let primary = PeerCredentials.user(uid: client.uid)?.gid ?? client.gid
            return !wanted.isDisjoint(with: PeerCredentials.groups(ofUser: name, primary: primary))
        }
        return false
    }

    /// One-shot form of `isAuthorised(_:)`.
    public static func isAuthorised(_ client: ClientInfo, allowedUsers: [String],
                                    allowedGroups: [String]) -> Bool {
        PeerAuthorisation(allowedUsers: allowedUsers, allowedGroups: allowedGroups).isAuthorised(client)
    }
}

import Glibc
