import Foundation
import Glibc
import Logging
import Synchronization

/// Notices the database file being deleted or replaced while the daemon has it open.
///
/// SQLite goes on writing to the open file after its path is unlinked (or renamed over): every
/// change would land in a file nobody can reach and vanish at the next start. So the file's
/// identity (`st_dev`, `st_ino`) is taken at open and compared with what the path names now —
/// before each change, for `status`, and every few seconds by `HousekeepingService` so the
/// journal says it even when no one asks. Once they differ, changes are refused until a restart opens the
/// file the path names.
final class DatabaseFileWatch: Sendable {
    let path: String
    private let identity: (dev: UInt, ino: UInt)?
    private let problem = Mutex<String?>(nil)
    private let logger: Logger
    /// How often the housekeeping looks when nobody asks.
    static let interval: Duration = .seconds(5)

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
        identity = Self.identity(of: path)
    }

    /// Nil while the path still names the open file; else the sentence saying what happened
    /// (logged once, the first time it is seen).
    func check() -> String? {
        guard let identity else { return nil }
        let now = Self.identity(of: path)
        guard now == nil || now! != identity else { return problem.withLock { $0 } }
        let sentence = now == nil
            ? "the database file \(path) was deleted while the daemon has it open; changes are refused (they would be lost) until hotcoldd restarts"
            : "the database file \(path) was replaced by another file while the daemon has the old one open; changes are refused until hotcoldd restarts"
        let first = problem.withLock { p -> Bool in
            defer { p = p ?? sentence }
            return p == nil
        }
        if first { logger.critical("\(sentence)") }
        return problem.withLock { $0 }
    }

    private static func identity(of path: String) -> (dev: UInt, ino: UInt)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (UInt(st.st_dev), UInt(st.st_ino))
    }
}
