#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket, by the kernel's record: uid and primary gid
/// (SO_PEERCRED) and supplementary groups (SO_PEERGROUPS) — the same facts the daemon judges
/// its own clients by.
public struct PeerCredentials: Sendable, Equatable {
    public var uid: UInt32
    public var gid: UInt32
    public var groups: [UInt32]

    public init(uid: UInt32, gid: UInt32, groups: [UInt32]) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    public init?(socket fd: Int32) {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc's module does not export it).
        var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout.size(ofValue: cred))
        let rc = withUnsafeMutableBytes(of: &cred) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &len) }
        guard rc == 0, Int(len) == MemoryLayout.size(ofValue: cred) else { return nil }
        uid = cred.1
        gid = cred.2
        // SO_PEERGROUPS (Linux 4.13); a kernel without it leaves only the primary group.
        let soPeerGroups: Int32 = 59
        var list = [UInt32](repeating: 0, count: 1024)
        var size = socklen_t(list.count * MemoryLayout<UInt32>.size)
        let g = list.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, soPeerGroups, $0.baseAddress, &size) }
        groups = g == 0 ? Array(list.prefix(Int(size) / MemoryLayout<UInt32>.size)) : []
    }

    /// The user's name, or `#UID` when the uid has none (as the daemon records it).
    public var userName: String {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return "#\(uid)" }
        return String(cString: name)
    }

    /// Names of the primary and supplementary groups (gids without a name are left out).
    var groupNames: Set<String> {
        var out: Set<String> = []
        for g in [gid] + groups {
            if let gr = getgrgid(g), let n = gr.pointee.gr_name { out.insert(String(cString: n)) }
        }
        return out
    }
}
