#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HotColdUnix

/// The last sequence number the broker acknowledged, kept in one small file in the bridge's
/// state directory (`acked-seq`: the number and a newline).
///
/// Written to `acked-seq.tmp`, fsynced, renamed over the old file and the directory fsynced:
/// after a crash or power loss the file holds either the old number or the new one, never a
/// torn one. Both ways as untrusted (`TrustedFile`): the temporary is created afresh, never
/// through a link planted there, and the number is read from a small regular file of the
/// bridge's own, never through a link nor waiting on a FIFO. A stored number that lags is harmless (the events after it are published again,
/// duplicates recognisable by `seq`); one that ran ahead would lose events, which this order of
/// writes rules out.
struct AckStore: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    var path: String { directory + "/acked-seq" }

    init(directory: String) { self.directory = directory }

    /// Creates the directory (and its parents) if needed, and checks it as ssh checks `~/.ssh`
    /// (`PrivateDirectory`): owned by the bridge's user or root and writable by nobody else,
    /// or anyone could plant a file or a link for it to trust. A failure names the path and why
    /// (mkdir's errno, not Foundation's "(null)").
    func createDirectory() throws(Failure) {
        var path = directory.hasPrefix("/") ? "" : "."
        let parts = directory.split(separator: "/", omittingEmptySubsequences: true)
        for (i, part) in parts.enumerated() {
            path += "/" + part
            if mkdir(path, i == parts.count - 1 ? 0o750 : 0o755) != 0, errno != EEXIST { throw fail("cannot create \(path)") }
        }
        var st = stat()
        guard stat(directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { throw fail("\(directory) is not a directory") }
        do { try PrivateDirectory.check(directory) } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The stored number, nil when there is none yet. A damaged or untrusted file (a link, a
    /// FIFO, another owner's, one others may write) is an error naming it and why.
    func load() throws(Failure) -> UInt64? {
        let data: [UInt8]
        switch TrustedFile.read(path, limit: 64) {
        case .success(let bytes): data = bytes
        case .failure(.missing): return nil
        case .failure(.tooLarge(_, let size, _)): throw Failure(description: "\(path): \(size) bytes, expected one number")
        case .failure(.system(_, _, let code)): throw Failure(description: "\(path): cannot read: \(String(cString: strerror(code)))")
        case .failure(let problem): throw Failure(description: "\(problem)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        guard let n = UInt64(text) else {
            throw Failure(description: "\(path): expected a whole number, found \"\(text)\"")
        }
        return n
    }

    /// Stores `seq` durably (see the type's comment).
    func save(_ seq: UInt64) throws(Failure) {
        try Self.writeDurably(Array("\(seq)\n".utf8), to: path)
    }

    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one, never a
    /// torn one: a fresh temporary file (`O_EXCL | O_NOFOLLOW`), fsynced, renamed over it, the
    /// directory fsynced.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws(Failure) {
        do { try TrustedFile.write(bytes, to: path, mode: 0o600) } catch {
            throw Failure(description: "\(error)")
        }
    }

    private func fail(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
