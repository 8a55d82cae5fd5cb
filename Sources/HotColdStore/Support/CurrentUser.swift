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
    public static var name: String {
        if let pw = getpwuid(getuid()), let n = pw.pointee.pw_name {
            return String(cString: n)
        }
        return "uid\(getuid())"
    }
}
