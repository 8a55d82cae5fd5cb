#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdConfig

/// The daemon's rule for who may write, applied to the user pairing a device: root, the
/// daemon's `[socket] allowed_users`, or a member of `allowed_groups` (by the groups the
/// pairing process really holds). Read from the daemon's own configuration file through the
/// project's loader, so the rule is the daemon's, not a copy that can drift.
public struct WriterRule: Sendable, Equatable {
    public var allowedUsers: [String]
    public var allowedGroups: [String]

    public init(allowedUsers: [String], allowedGroups: [String]) {
        self.allowedUsers = allowedUsers
        self.allowedGroups = allowedGroups
    }

    /// The daemon's configuration at `path`; its defaults when the file does not exist.
    public static func load(daemonConfig path: String) throws(ConfigError) -> WriterRule {
        let c = FileManager.default.fileExists(atPath: path) ? try ConfigLoader.load(path: path) : Configuration()
        return WriterRule(allowedUsers: c.socket.allowedUsers, allowedGroups: c.socket.allowedGroups)
    }

    public func isWriter(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 { return true }
        if allowedUsers.contains(peer.userName) { return true }
        return !peer.groupNames.isDisjoint(with: allowedGroups)
    }
}
