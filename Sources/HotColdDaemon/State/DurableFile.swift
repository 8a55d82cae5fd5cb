import Foundation
import Glibc

/// Small state files that survive a power cut whole: written to `PATH.tmp`, synced, renamed
/// over the old file and the directory synced. A cut at any instant leaves the old contents
/// or the new ones, never a torn or empty file.
///
/// ```swift
/// if let problem = DurableFile.write(Array("42\n".utf8), to: "/var/lib/hotcold/event-seq") { … }
/// DurableFile.remove("/var/lib/hotcold/clean-stop")
/// ```
enum DurableFile {
    /// Returns what went wrong, or nil.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o640) -> String? {
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return "cannot create \(tmp): \(String(cString: strerror(errno)))" }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR { continue }
            let code = n < 0 ? errno : ENOSPC
            close(fd)
            unlink(tmp)
            return "cannot write \(tmp): \(String(cString: strerror(code)))"
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(tmp)
            return "cannot sync \(tmp): \(String(cString: strerror(code)))"
        }
        close(fd)
        guard rename(tmp, path) == 0 else {
            let code = errno
            unlink(tmp)
            return "cannot rename \(tmp) to \(path): \(String(cString: strerror(code)))"
        }
        return syncDirectory(of: path)
    }

    /// Removes `path` durably (a mark that must not come back after a cut). Nil when done or
    /// when there was nothing to remove.
    static func remove(_ path: String) -> String? {
        if unlink(path) != 0 {
            return errno == ENOENT ? nil : "cannot remove \(path): \(String(cString: strerror(errno)))"
        }
        return syncDirectory(of: path)
    }

    /// The whole file, at most `limit` bytes; nil when it is missing, unreadable or larger.
    static func read(_ path: String, limit: Int = 64 << 10) -> [UInt8]? {
        guard let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        guard let data = try? h.read(upToCount: limit + 1), data.count <= limit else { return nil }
        return [UInt8](data)
    }

    static func syncDirectory(of path: String) -> String? {
        let dir = (path as NSString).deletingLastPathComponent
        let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return nil }
        defer { close(dfd) }
        return fsync(dfd) == 0 ? nil : "cannot sync \(dir): \(String(cString: strerror(errno)))"
    }
}
