import Foundation
import Glibc

/// Reads `SO_PEERCRED` from a connected Unix socket and resolves names through NSS.
enum PeerCredentials {
    /// pid, uid, gid of the peer; nil when the kernel will not say (not a Unix socket).
    static func read(_ fd: Int32) -> (pid: Int32, uid: UInt32, gid: UInt32)? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } — three 32-bit fields on Linux.
        var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout.size(ofValue: cred))
        let rc = withUnsafeMutableBytes(of: &cred) { raw in
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, raw.baseAddress, &len)
        }
        guard rc == 0, Int(len) == MemoryLayout.size(ofValue: cred) else { return nil }
        return (cred.0, cred.1, cred.2)
    }

    /// The peer's supplementary groups as the kernel recorded them at `connect(2)`
    /// (`SO_PEERGROUPS`, Linux 4.13): the process's real group list, not what the group
    /// database says its user should have. Nil when the kernel will not say.
    static func groups(_ fd: Int32) -> [UInt32]? {
        let soPeerGroups: Int32 = 59   // SO_PEERGROUPS, not exported by Glibc's module
        var list = [UInt32](repeating: 0, count: 64)
        while true {
            var len = socklen_t(list.count * MemoryLayout<UInt32>.size)
            let rc = list.withUnsafeMutableBytes { raw in
                getsockopt(fd, SOL_SOCKET, soPeerGroups, raw.baseAddress, &len)
            }
            if rc == 0 { return Array(list.prefix(Int(len) / MemoryLayout<UInt32>.size)) }
            // ERANGE: len now says how much is needed (NGROUPS_MAX is 65536).
            guard errno == ERANGE, Int(len) > list.count * 4, Int(len) <= 65536 * 4 else { return nil }
            list = [UInt32](repeating: 0, count: Int(len) / 4)
        }
    }

    /// The name to record a uid's changes under: its passwd name when that name leads back
    /// to the same uid, else `#UID` (`CurrentUser.unknownUserName`), which no real user can
    /// be called. So a uid with no passwd entry, or one sharing a name with another uid,
    /// never writes into a real user's records. May block on the name service: call it off
    /// the socket's loop.
    static func recordName(uid: UInt32) -> String? {
        guard let name = user(uid: uid)?.name, !name.isEmpty, !name.hasPrefix("#"),
              self.uid(ofUser: name) == uid else { return nil }
        return name
    }

    /// `getpwuid_r`: the user's name and primary group, nil when unknown.
    static func user(uid: UInt32) -> (name: String, gid: UInt32)? {
        var pwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getpwuid_r(uid, &pwd, &buffer, size, &result)
            if rc == ERANGE, size < 1 << 20 { size *= 4; continue }
            guard rc == 0, let p = result, let name = p.pointee.pw_name else { return nil }
            return (String(cString: name), p.pointee.pw_gid)
        }
    }

    /// `getpwnam_r`: a user name's uid.
    public static func uid(ofUser name: String) -> UInt32? {
        var pwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getpwnam_r(name, &pwd, &buffer, size, &result)
            if rc == ERANGE, size < 1 << 20 { size *= 4; continue }
            guard rc == 0, let p = result else { return nil }
            return p.pointee.pw_uid
        }
    }

    /// `getgrnam_r`: a group name's gid.
    public static func gid(ofGroup name: String) -> UInt32? {
        var grp = group()
        var result: UnsafeMutablePointer<group>?
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getgrnam_r(name, &grp, &buffer, size, &result)
            if rc == ERANGE, size < 1 << 20 { size *= 4; continue }
            guard rc == 0, let g = result else { return nil }
            return g.pointee.gr_gid
        }
    }

    /// `getgrouplist`: every group the user belongs to, its primary group included.
    static func groups(ofUser name: String, primary: UInt32) -> [UInt32] {
        var count: Int32 = 32
        while true {
            var list = [gid_t](repeating: 0, count: Int(count))
            var n = count
            if getgrouplist(name, primary, &list, &n) >= 0 {
                return Array(list.prefix(Int(n)))
            }
            guard n > count, n < 65536 else { return [primary] }
            count = n
        }
    }
}
