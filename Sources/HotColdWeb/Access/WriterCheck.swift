#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The writer rule applied at each write, not once at pairing: the daemon's rule as its
/// configuration says now (re-read when the file changes) to the pairing user's account as it
/// is now (uid, primary and supplementary groups from the system's user database). A user taken
/// out of the writers, or out of the group, stops writing through a phone paired earlier.
public final class WriterCheck: Sendable {
    public let daemonConfig: String
    private struct Cached {
        var rule: WriterRule
        var stamp: String
    }
    private let cached: Mutex<Cached>

    public init(daemonConfig: String, rule: WriterRule) {
        self.daemonConfig = daemonConfig
        cached = Mutex(Cached(rule: rule, stamp: Self.stamp(daemonConfig)))
    }

    /// The rule now; a file that no longer reads keeps the last good rule.
    public var rule: WriterRule {
        let now = Self.stamp(daemonConfig)
        if let r = cached.withLock({ $0.stamp == now ? $0.rule : nil }) { return r }
        let fresh = (try? WriterRule.load(daemonConfig: daemonConfig)) ?? cached.withLock { $0.rule }
        cached.withLock { $0 = Cached(rule: fresh, stamp: now) }
        return fresh
    }

    /// Whether the user with `uid` may write now.
    public func isWriter(uid: UInt32) -> Bool {
        if uid == 0 { return true }
        guard let account = PeerCredentials(account: uid) else { return false }
        return rule.isWriter(account)
    }

    /// Size and change time: a new file, an edit or a removal changes it.
    static func stamp(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "absent" }
        return "\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec):\(st.st_mtim.tv_nsec)"
    }
}

extension PeerCredentials {
    /// The account `uid` as the user database has it now: its primary group and every group
    /// it is a member of. Nil when the account no longer exists.
    public init?(account uid: UInt32) {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return nil }
        let gid = pw.pointee.pw_gid
        var count: Int32 = 256
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &list, &count) < 0 {
            list = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, gid, &list, &count)
        }
        self.init(uid: uid, gid: gid, groups: Array(list.prefix(Int(max(0, count)))))
    }
}
