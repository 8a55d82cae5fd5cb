#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Whether a local user could open the daemon's socket itself — root, its owner, a member of
/// its group (by the account's groups as the user database has them now), or anyone when the
/// socket is open to others. A local browser reads through hotcold-web only as a user who
/// could read the daemon directly: hotcold-web must never widen who sees the car's position.
///
/// The socket's owner, group and mode are remembered from the last time it could be
/// inspected, so a daemon restarting (its socket briefly gone) does not lock the box's own
/// display out.
final class DaemonSocketAccess: Sendable {
    let path: String
    private struct Seen { var uid: uid_t; var gid: gid_t; var mode: mode_t }
    private let seen = Mutex<Seen?>(nil)

    init(path: String) { self.path = path }

    func mayOpen(uid: UInt32) -> Bool {
        if uid == 0 { return true }
        var st = stat()
        let now: Seen? = stat(path, &st) == 0 ? Seen(uid: st.st_uid, gid: st.st_gid, mode: st.st_mode) : nil
        guard let s = seen.withLock({ last -> Seen? in
            if let now { last = now }
            return last
        }) else { return false }
        if uid == s.uid { return true }
        if let account = PeerCredentials(account: uid), account.gid == s.gid || account.groups.contains(s.gid) { return true }
        return s.mode & 0o002 != 0
    }
}
