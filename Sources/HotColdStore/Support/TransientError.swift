import GRDB
import HotColdFormats

extension Store {
    /// Whether an error from a write may go away by itself — the database busy or locked by
    /// another process, the disk full or failing, the file not openable right now — so that
    /// the write is worth retrying later. Constraint violations, a missing place and the like
    /// are not: the same write would fail again.
    ///
    /// ```swift
    /// catch { if Store.isTransient(error) { retryLater() } }
    /// ```
    public static func isTransient(_ error: any Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        switch e.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN,
             .SQLITE_READONLY, .SQLITE_PROTOCOL, .SQLITE_NOMEM, .SQLITE_INTERRUPT, .SQLITE_ABORT:
            return true
        default:
            return false
        }
    }

    /// Whether an error is another program holding the database's lock past the busy timeout:
    /// "not now, try later" (`busy` on the socket, exit 75 in `hotcold`), not a fault.
    static func isBusy(_ error: any Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED
    }
}
