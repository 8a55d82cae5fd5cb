import Foundation
import Glibc

/// An export written to a staged file, read back a chunk at a time by `download`.
///
/// The file is unlinked as soon as it is open, so it holds disk only while the descriptor
/// lives, and nothing is left behind by a crash; its bytes never sit in the daemon's memory.
final class StagedDownload: @unchecked Sendable {
    let fd: Int32
    private(set) var size = 0

    /// Creates the file in `directory` (mode 0600) and unlinks it at once.
    init(directory: String) throws {
        let path = "\(directory)/export-\(getpid())-\(UUID().uuidString)"
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        unlink(path)
    }

    deinit { close(fd) }

    /// Appends `data` (called on one thread while the export is made).
    func append(_ data: Data) throws {
        try data.withUnsafeBytes { (p: UnsafeRawBufferPointer) in
            var done = 0
            while done < p.count {
                let n = pwrite(fd, p.baseAddress! + done, p.count - done, off_t(size + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                done += n
            }
        }
        size += data.count
    }

    /// Up to `count` bytes from `offset`.
    func read(offset: Int, count: Int) throws -> Data {
        var out = Data(count: count)
        let got = try out.withUnsafeMutableBytes { (p: UnsafeMutableRawBufferPointer) -> Int in
            var done = 0
            while done < count {
                let n = pread(fd, p.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if n == 0 { break }
                done += n
            }
            return done
        }
        return out.prefix(got)
    }
}
