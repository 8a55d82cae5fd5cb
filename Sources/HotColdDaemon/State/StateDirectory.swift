import HotColdUnix
#if canImport(Glibc)
import Glibc
#endif

/// The directory the daemon keeps its state in (the database's: the sequence, the clean-stop
/// mark, the kept tracking, the last unclean stop, uploads being staged), checked before
/// anything in it is read or written. Anyone who may write there could plant a link or a file
/// for the daemon to trust, so, as ssh does with `~/.ssh`, the daemon refuses to start when it
/// is not a directory, owned by someone other than its user or root, or writable by group or
/// others (a link to it is the administrator's: where it leads is checked). A missing
/// directory is made, private.
///
/// ```swift
/// try StateDirectory.ensure("/var/lib/hotcold", database: "/var/lib/hotcold/hotcold.sqlite")
/// // with --db /tmp/hc.sqlite: "hotcoldd keeps its state in /tmp, …, and it is writable by others (mode 1777, …"
/// ```
public enum StateDirectory {
    /// Why the daemon will not use its state directory: a configuration problem (EX_CONFIG).
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let directory: String
        public let description: String
    }

    static func ensure(_ directory: String, database: String) throws(Refusal) {
        do throws(TrustedFile.Problem) {
            try PrivateDirectory.ensure(directory, mode: 0o750)
        } catch {
            throw Refusal(directory: directory, description: sentence(error, directory: directory, database: database))
        }
    }

    static func sentence(_ problem: TrustedFile.Problem, directory: String, database: String) -> String {
        let own = "give the database a directory of its own (for example --db /var/lib/hotcold/hotcold.sqlite, or [store] database): hotcoldd makes it, private"
        let start = "hotcoldd keeps its state in \(directory), the directory of the database \(database)"
        var st = stat()
        let found = stat(directory, &st) == 0
        let mode = found ? "mode \(String(st.st_mode & 0o7777, radix: 8)), owner uid \(st.st_uid)" : "mode unknown"
        switch problem {
        case .writableByOthers:
            // A shared directory such as /tmp (sticky) is meant to stay open to all: only a
            // directory of its own helps; otherwise taking the write permission away does too.
            let shared = found && st.st_mode & S_ISVTX != 0
            return "\(start), and it is writable by others (\(mode)): anyone who can write there could make hotcoldd write through a link planted in it; \(own)"
                + (shared ? "" : ", or take the others' write permission away (chmod go-w \(directory))")
        case .wrongOwner(_, let owner, let expected):
            return "\(start), and it belongs to uid \(owner) (\(mode)), not to hotcoldd's user (uid \(expected)) or root; \(own), or make it hotcoldd's (chown \(expected) \(directory))"
        case .symlink:
            return "\(start), and it is a symbolic link (\(mode)), not followed; \(own), or name the real directory"
        case .notRegular(_, let kind):
            return "\(start), and it is a \(kind), not a directory (\(mode)); \(own)"
        case .missing, .tooLarge, .system:
            return "\(start): \(problem); \(own)"
        }
    }
}
