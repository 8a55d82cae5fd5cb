import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Unix user running this process: offline (`--db`) work is attributed to them, as the
/// daemon attributes socket clients by their peer credentials.
///
/// ```swift
/// let me = CurrentUser.name   // "alice"
/// ```
public enum CurrentUser {
    /// The name recorded for a uid that has no passwd entry: `#1234`. `#` cannot start a
    /// user name (useradd refuses it, and a passwd line starting with `#` is a comment), so
    /// it never collides with a real user's records.
    public static func unknownUserName(uid: UInt32) -> String { "#\(uid)" }

    public static var name: String {
        if let pw = getpwuid(getuid()), let n = pw.pointee.pw_name {
            return String(cString: n)
        }
        return unknownUserName(uid: getuid())
    }
}
