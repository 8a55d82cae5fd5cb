#if canImport(Glibc)
import Glibc
#endif

/// A file that each input is written to, for code under test that only reads paths. It lives
/// in /dev/shm when there is one (no disk I/O per input) and is named after the process.
public struct ScratchFile {
    public let path: String

    public init(name: String) {
        var dir = "/tmp"
        var info = stat()
        if stat("/dev/shm", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { dir = "/dev/shm" }
        path = "\(dir)/hotcold-fuzz-\(getpid())-\(name)"
    }

    /// Replaces the file's content with `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        fuzzCheck(fd >= 0, "cannot create \(path)")
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            fuzzCheck(n > 0 || errno == EINTR, "cannot write \(path)")
            if n > 0 { done += n }
        }
        close(fd)
    }

    public func remove() { unlink(path) }
}
