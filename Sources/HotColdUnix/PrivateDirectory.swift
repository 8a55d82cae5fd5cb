#if canImport(Glibc)
import Glibc
#endif

/// A directory a program keeps its own state in, checked the way ssh checks `~/.ssh`: it must
/// be a directory owned by the program's user or root, and writable by nobody else —
/// otherwise anyone who can write there can plant a link or a file for the program to trust.
/// A link on the way to it is the administrator's (systemd's `DynamicUser=` makes
/// `/var/lib/hotcold` a link to `/var/lib/private/hotcold`): the directory it leads to is the
/// one checked. A missing directory is created with `mode`.
///
/// ```swift
/// try PrivateDirectory.ensure("/var/lib/hotcold")   // throws "…: writable by others (mode 1777)…"
/// ```
public enum PrivateDirectory {
    public static func ensure(_ path: String, mode: mode_t = 0o750, owner: UInt32 = geteuid()) throws(TrustedFile.Problem) {
        var st = stat()
        if stat(path, &st) != 0 {
            guard errno == ENOENT else { throw .system(path, operation: "inspect", errno: errno) }
            try createParents(of: path)
            if mkdir(path, mode) != 0, errno != EEXIST { throw .system(path, operation: "create", errno: errno) }
            guard stat(path, &st) == 0 else { throw .system(path, operation: "inspect", errno: errno) }
        }
        try check(path, st, owner: owner)
    }

    /// The same checks on an existing directory, without creating anything.
    public static func check(_ path: String, owner: UInt32 = geteuid()) throws(TrustedFile.Problem) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw errno == ENOENT ? .missing(path) : .system(path, operation: "inspect", errno: errno)
        }
        try check(path, st, owner: owner)
    }

    static func check(_ path: String, _ st: stat, owner: UInt32) throws(TrustedFile.Problem) {
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFDIR else { throw .notRegular(path, kind: TrustedFile.kindName(kind)) }
        if st.st_uid != owner, st.st_uid != 0 { throw .wrongOwner(path, owner: st.st_uid, expected: owner) }
        if st.st_mode & 0o022 != 0 { throw .writableByOthers(path, mode: st.st_mode) }
    }

    /// Ordinary `mkdir -p` for the parents: their trust is the administrator's (like /var/lib).
    static func createParents(of path: String) throws(TrustedFile.Problem) {
        var prefix = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        for part in parts {
            prefix += (path.hasPrefix("/") || !prefix.isEmpty ? "/" : "") + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw .system(prefix, operation: "create", errno: errno)
            }
        }
    }
}
