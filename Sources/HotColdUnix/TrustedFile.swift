#if canImport(Glibc)
import Glibc
#endif

/// The programs' own small files (state, pairings, the phone's regions), read and written as
/// if someone else might have put something in their place: links are never followed, a read
/// never blocks on a FIFO or a device, and what is read is a regular file of the expected
/// owner, not writable by others, within a size bound. Writes go to a fresh temporary created
/// with `O_EXCL | O_NOFOLLOW` beside the target, are synced, renamed into place, and the
/// directory is synced: a power cut leaves the old file or the new one, never a torn one.
///
/// ```swift
/// switch TrustedFile.read("/var/lib/hotcold/tracking.json", limit: 64 << 10) {
/// case .success(let bytes): …
/// case .failure(.missing): …                    // nothing kept: not a problem
/// case .failure(let problem): log(problem)      // "…: a symbolic link; not followed"
/// }
/// try TrustedFile.write(bytes, to: path, mode: 0o600)
/// ```
public enum TrustedFile {
    /// Why a file was not used.
    public enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
        case missing(String)
        case symlink(String)
        case notRegular(String, kind: String)
        case wrongOwner(String, owner: UInt32, expected: UInt32)
        case writableByOthers(String, mode: UInt32)
        case tooLarge(String, size: Int, limit: Int)
        case system(String, operation: String, errno: Int32)

        public var path: String {
            switch self {
            case .missing(let p), .symlink(let p), .notRegular(let p, _), .wrongOwner(let p, _, _),
                 .writableByOthers(let p, _), .tooLarge(let p, _, _), .system(let p, _, _): p
            }
        }

        public var description: String {
            switch self {
            case .missing(let p): "\(p): no such file"
            case .symlink(let p): "\(p): a symbolic link, not followed"
            case .notRegular(let p, let kind): "\(p): a \(kind), not a regular file"
            case .wrongOwner(let p, let owner, let expected):
                "\(p): owned by uid \(owner), expected uid \(expected)\(expected == 0 ? "" : " or root")"
            case .writableByOthers(let p, let mode):
                "\(p): writable by others (mode \(String(mode & 0o7777, radix: 8)))"
            case .tooLarge(let p, let size, let limit): "\(p): \(size) bytes, more than the \(limit) allowed"
            case .system(let p, let op, let code): "cannot \(op) \(p): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The file's bytes, at most `limit` of them. `owner` is the uid the file must belong to
    /// (root is accepted too); nil accepts any owner. Never follows a link, never blocks.
    public static func read(_ path: String, limit: Int, owner: UInt32? = geteuid()) -> Result<[UInt8], Problem> {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(openProblem(path, errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.system(path, operation: "inspect", errno: errno)) }
        if let problem = check(path, st, owner: owner) { return .failure(problem) }
        guard Int(st.st_size) <= limit else { return .failure(.tooLarge(path, size: Int(st.st_size), limit: limit)) }
        // Read to the end, not to st_size: /proc and /sys files say 0 and have content.
        var bytes = [UInt8](repeating: 0, count: min(limit, max(Int(st.st_size), 4096)) + 1)
        var done = 0
        while true {
            if done == bytes.count {
                guard bytes.count <= limit else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n; continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            return .failure(.system(path, operation: "read", errno: errno))
        }
        // It grew while being read: the bound holds on what is read, not on what stat said.
        guard done <= limit else { return .failure(.tooLarge(path, size: done, limit: limit)) }
        return .success(Array(bytes[..<done]))
    }

    /// Writes `bytes` durably to `path` (see the type's comment). A link or other non-file at
    /// `path` is replaced, never written through.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(Problem) {
        let tmp = path + ".tmp"
        // A stale temporary (or a planted link) goes first: unlink removes a link itself.
        if unlink(tmp) != 0, errno != ENOENT { throw .system(tmp, operation: "remove", errno: errno) }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode)
        guard fd >= 0 else { throw .system(tmp, operation: "create", errno: errno) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR { continue }
            let code = n < 0 ? errno : ENOSPC
            close(fd)
            unlink(tmp)
            throw .system(tmp, operation: "write", errno: code)
        }
        // The umask may have narrowed the mode; never widened past `mode`.
        _ = fchmod(fd, mode)
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(tmp)
            throw .system(tmp, operation: "sync", errno: code)
        }
        close(fd)
        guard rename(tmp, path) == 0 else {
            let code = errno
            unlink(tmp)
            throw .system(path, operation: "rename \(tmp) to", errno: code)
        }
        try syncDirectory(of: path)
    }

    /// Removes `path` durably (a mark that must not come back after a cut). Nothing to remove
    /// is not a problem.
    public static func remove(_ path: String) throws(Problem) {
        if unlink(path) != 0 {
            if errno == ENOENT { return }
            throw .system(path, operation: "remove", errno: errno)
        }
        try syncDirectory(of: path)
    }

    /// Whether something (of any kind, links included) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Moves an unusable file out of the way as `PATH.unusable` (replacing an older one), so
    /// it is kept for a person to look at and never read again. Returns the new name.
    @discardableResult
    public static func setAside(_ path: String) -> String? {
        let aside = path + ".unusable"
        guard rename(path, aside) == 0 else { return nil }
        try? syncDirectory(of: path)
        return aside
    }

    public static func syncDirectory(of path: String) throws(Problem) {
        let dir = directory(of: path)
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw .system(dir, operation: "sync", errno: errno) }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    static func openProblem(_ path: String, _ code: Int32) -> Problem {
        switch code {
        case ENOENT: return .missing(path)
        case ELOOP: return .symlink(path)
        case ENXIO: return .notRegular(path, kind: "socket or FIFO")
        default: return .system(path, operation: "open", errno: code)
        }
    }

    static func check(_ path: String, _ st: stat, owner: UInt32?) -> Problem? {
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else { return .notRegular(path, kind: kindName(kind)) }
        if let owner, st.st_uid != owner, st.st_uid != 0 {
            return .wrongOwner(path, owner: st.st_uid, expected: owner)
        }
        if st.st_mode & 0o022 != 0 { return .writableByOthers(path, mode: st.st_mode) }
        return nil
    }

    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "directory"
        case S_IFIFO: "FIFO"
        case S_IFSOCK: "socket"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        case S_IFLNK: "symbolic link"
        default: "special file"
        }
    }
}
