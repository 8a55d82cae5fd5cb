import GRDB
import HotColdFormats

/// What a database error means to the person who ran the command, so that code outside the
/// store (the client's exit status, its messages) never needs GRDB's types to tell.
public struct DatabaseFailure: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Another program holds the lock: try later.
        case locked
        /// The file's mode or a read-only mount keeps this user out.
        case notPermitted
        /// The file or its folder cannot be opened or created.
        case cannotOpen
        /// A value the database refused (a constraint, too big).
        case badData
        /// Reading or writing failed: disk full, I/O error, a damaged file.
        case io
        case other
    }

    public var kind: Kind
    /// SQLite's own words when it gave some, else its result code.
    public var message: String

    /// Nil when `error` did not come from the database.
    public init?(_ error: any Error) {
        guard let e = error as? DatabaseError else { return nil }
        message = e.message ?? "\(e.resultCode)"
        switch e.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: kind = .locked
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: kind = .notPermitted
        case .SQLITE_CANTOPEN: kind = .cannotOpen
        case .SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE: kind = .badData
        case .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CORRUPT, .SQLITE_NOTADB: kind = .io
        default: kind = .other
        }
    }
}
