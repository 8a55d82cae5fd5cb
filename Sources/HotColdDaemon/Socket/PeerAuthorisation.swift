import Glibc

/// Decides whether a client may change daemon state, from its peer credentials alone.
///
/// Root and the daemon's own uid are always allowed. Otherwise the client's uid must be one
/// of `allowedUsers` (names, or decimal uids), or one of the groups its process really holds
/// — the primary group and the supplementary groups the kernel reported at connect — must be
/// one of `allowedGroups` (names, or decimal gids). Names are resolved to ids once, when the
/// policy is built (at start and on reload), so deciding never waits on the name service and
/// the group database can never grant a group the process does not hold.
///
/// ```swift
/// let policy = PeerAuthorisation(allowedUsers: ["alice"], allowedGroups: ["hotcold"])
/// if !policy.isAuthorised(client) { return [error("hunt: read-only client (uid 1001)")] }
/// ```
struct PeerAuthorisation: Sendable {
    let allowedUsers: [String]
    let allowedGroups: [String]
    /// Users (names, or decimal uids) whose connections may `act_for` another user.
    let proxies: [String]
    /// The daemon's own uid (defaults to `getuid()`), always allowed.
    let ownUID: UInt32
    let uids: Set<UInt32>
    let gids: Set<UInt32>
    /// Configured names that did not resolve (reported by the daemon; re-resolved on reload).
    let unresolved: [String]

    init(allowedUsers: [String] = [], allowedGroups: [String] = [], proxies: [String] = [], ownUID: UInt32 = getuid()) {
        self.allowedUsers = allowedUsers
        self.allowedGroups = allowedGroups
        self.proxies = proxies
        self.ownUID = ownUID
        var uids = Set<UInt32>(), gids = Set<UInt32>(), unresolved: [String] = []
        for u in allowedUsers {
            if let id = UInt32(u) ?? PeerCredentials.uid(ofUser: u) { uids.insert(id) } else { unresolved.append("user \(u)") }
        }
        for g in allowedGroups {
            if let id = UInt32(g) ?? PeerCredentials.gid(ofGroup: g) { gids.insert(id) } else { unresolved.append("group \(g)") }
        }
        self.uids = uids
        self.gids = gids
        self.unresolved = unresolved
    }

    /// Pure: no lookups.
    func isAuthorised(_ client: ClientInfo) -> Bool {
        if client.uid == 0 || client.uid == ownUID || uids.contains(client.uid) { return true }
        if gids.contains(client.gid) { return true }
        return client.groups.contains { gids.contains($0) }
    }

    /// Whether `client` may act for another user (`act_for`). Pure: proxies are matched by the
    /// name resolved at connect (a dynamic user has a uid only while its service runs), or by
    /// uid; a connection already acting for someone is not a proxy.
    func mayActForOthers(_ client: ClientInfo) -> Bool {
        guard client.via == nil else { return false }
        if client.uid == 0 || client.uid == ownUID { return true }
        if let name = client.userName, proxies.contains(name) { return true }
        return proxies.contains(String(client.uid))
    }

    /// One-shot form of `isAuthorised(_:)`.
    static func isAuthorised(_ client: ClientInfo, allowedUsers: [String],
                                    allowedGroups: [String]) -> Bool {
        PeerAuthorisation(allowedUsers: allowedUsers, allowedGroups: allowedGroups).isAuthorised(client)
    }
}
