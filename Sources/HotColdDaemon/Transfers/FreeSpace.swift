import Glibc

/// Bytes an unprivileged writer may still use on the filesystem holding `path` (statvfs's
/// `f_bavail`), nil when it cannot be asked.
func freeBytes(at path: String) -> Int? {
    var s = statvfs()
    guard statvfs(path, &s) == 0 else { return nil }
    let (n, overflow) = Int(clamping: s.f_bavail).multipliedReportingOverflow(by: Int(clamping: s.f_frsize))
    return overflow ? Int.max : n
}
