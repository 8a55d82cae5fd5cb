#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The last sequence number the broker acknowledged, kept in one small file in the bridge's
/// state directory (`acked-seq`: the number and a newline).
///
/// Written to `acked-seq.tmp`, fsynced, renamed over the old file and the directory fsynced:
/// after a crash or power loss the file holds either the old number or the new one, never a
/// torn one. A stored number that lags is harmless (the events after it are published again,
/// duplicates recognisable by `seq`); one that ran ahead would lose events, which this order of
/// writes rules out.
struct AckStore: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    var path: String { directory + "/acked-seq" }

    init(directory: String) { self.directory = directory }

    /// Creates the directory (and its parents) if needed; a failure names the path and why
    /// (mkdir's errno, not Foundation's "(null)").
    func createDirectory() throws(Failure) {
        var path = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o755) != 0, errno != EEXIST { throw fail("cannot create \(path)") }
        }
        var st = stat()
        guard stat(directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { throw fail("\(directory) is not a directory") }
    }

    /// The stored number, nil when there is none yet. A damaged file is an error naming it.
    func load() throws(Failure) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw Failure(description: "\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            return nil
        }
        guard data.count <= 64 else { throw Failure(description: "\(path): \(data.count) bytes, expected one number") }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        guard let n = UInt64(text) else {
            throw Failure(description: "\(path): expected a whole number, found \"\(text)\"")
        }
        return n
    }

    /// Stores `seq` durably (see the type's comment).
    func save(_ seq: UInt64) throws(Failure) {
        try Self.writeDurably(Array("\(seq)\n".utf8), to: path, directory: directory)
    }

    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one, never a
    /// torn one: a temporary file, fsynced, renamed over it, the directory fsynced.
    static func writeDurably(_ bytes: [UInt8], to path: String, directory: String) throws(Failure) {
        func fail(_ what: String) -> Failure { Failure(description: "\(what): \(String(cString: strerror(errno)))") }
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("open \(tmp)") }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = fail("write \(tmp)")
                close(fd)
                throw e
            }
            written += n
        }
        guard fsync(fd) == 0 else { let e = fail("fsync \(tmp)"); close(fd); throw e }
        close(fd)
        guard rename(tmp, path) == 0 else { throw fail("rename \(tmp) to \(path)") }
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw fail("open \(directory)") }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw fail("fsync \(directory)") }
    }

    private func fail(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
