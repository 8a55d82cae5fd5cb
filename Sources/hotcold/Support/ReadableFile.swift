import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file the user named, with errors in our own words (which file, and what is wrong
/// with it) rather than Foundation's "The operation could not be completed", and with a size
/// cap checked before anything is read.
enum ReadableFile {
    static func contents(of url: URL, limit: Int, what: String) throws -> Data {
        let path = url.path
        let st = try check(url, what: what)
        if st.st_size > limit {
            throw CLIError("\(what) \(path): \(st.st_size) bytes is over the \(limit / 1_048_576) MiB limit")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(what) \(path): could not be read", code: .ioError)
        }
        guard data.count <= limit else {
            throw CLIError("\(what) \(path): over the \(limit / 1_048_576) MiB limit")
        }
        return data
    }

    /// That `url` names a readable file, or the reason in our words (status 66).
    @discardableResult
    static func check(_ url: URL, what: String) throws -> stat {
        let path = url.path
        var st = stat()
        guard stat(path, &st) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw CLIError("\(what) \(path): \(reason)", code: .noInput)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw CLIError("\(what) \(path): is a directory, not a file", code: .noInput) }
        guard access(path, R_OK) == 0 else { throw CLIError("\(what) \(path): not readable by this user", code: .noInput) }
        return st
    }
}
