import HotColdUnix
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's small state files (the sequence, the clean-stop mark, the kept tracking, the
/// last unclean stop), on top of ``TrustedFile``: a write never follows a link planted at the
/// file or its temporary and survives a power cut whole; a read never blocks on a FIFO, never
/// follows a link and takes only a regular file of the daemon's user (or root), writable by
/// nobody else, within a bound. What cannot be used is set aside (`PATH.unusable`) and said in
/// the log with what it costs, never dropped in silence.
///
/// ```swift
/// if let problem = DurableFile.write(Array("42\n".utf8), to: "/var/lib/hotcold/event-seq") { … }
/// DurableFile.remove("/var/lib/hotcold/clean-stop")
/// let bytes = DurableFile.readAtStart(path, logger: logger, losing: "the kept hunt was not restored")
/// ```
enum DurableFile {
    /// The largest state file read: the biggest (a kept hunt of 1,000 targets) is far smaller.
    static let readLimit = 256 << 10

    /// Returns what went wrong, or nil.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o640) -> String? {
        do throws(TrustedFile.Problem) {
            try TrustedFile.write(bytes, to: path, mode: mode)
            return nil
        } catch {
            return error.description
        }
    }

    /// Removes `path` durably (a mark that must not come back after a cut). Nil when done or
    /// when there was nothing to remove.
    static func remove(_ path: String) -> String? {
        do throws(TrustedFile.Problem) {
            try TrustedFile.remove(path)
            return nil
        } catch {
            return error.description
        }
    }

    /// The file's bytes, or why they were not read (`.missing` when there is nothing there).
    static func read(_ path: String, limit: Int = readLimit) -> Result<[UInt8], TrustedFile.Problem> {
        TrustedFile.read(path, limit: limit, owner: geteuid())
    }

    /// A file read once at start: its bytes; nil when it is missing (nothing said) or unusable
    /// (set aside and said at `error` level: "`losing`: PATH: a FIFO, not a regular file; set
    /// aside as PATH.unusable; `then`").
    static func readAtStart(_ path: String, limit: Int = readLimit, logger: Logger, losing: String, then: String = "") -> [UInt8]? {
        switch read(path, limit: limit) {
        case .success(let bytes):
            return bytes
        case .failure(.missing):
            return nil
        case .failure(let problem):
            logger.error("\(losing): \(problem); \(setAside(path))\(then.isEmpty ? "" : "; " + then)")
            return nil
        }
    }

    /// Moves an unusable file out of the way, and says where it went (for the log).
    static func setAside(_ path: String) -> String {
        if let aside = TrustedFile.setAside(path) { return "set aside as \(aside)" }
        return "it could not be set aside (\(String(cString: strerror(errno))))"
    }
}
