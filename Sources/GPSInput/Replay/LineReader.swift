#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XMLStream

/// Reads a file descriptor in 64 KiB chunks and hands out lines as byte slices, so memory stays
/// flat whatever the file size and no `String` is built per line.
///
/// The slices point into the reader's buffer and are valid until the next call.
final class LineReader: XMLByteSource {
    enum Result {
        /// One line without its `\n` (a trailing `\r` is kept: callers decide). `terminated` is false
        /// only for a last line that the file ends in the middle of.
        case line(UnsafeBufferPointer<UInt8>, terminated: Bool)
        /// A line longer than `maximumLineLength`; its bytes were dropped.
        case tooLong
        case end
    }

    static let chunkSize = 64 * 1024
    /// No NMEA sentence (82 bytes) or gpsd JSON object comes near this; longer lines are garbage.
    static let maximumLineLength = 64 * 1024

    private let fd: Int32
    private let path: String
    private let capacity = LineReader.chunkSize + LineReader.maximumLineLength
    private let buffer: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Dropping the rest of an over-long line up to its newline.
    private var discarding = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    func nextLine() throws -> Result {
        while true {
            if start < end,
               let hit = memchr(buffer + start, 0x0A, end - start) {
                let nl = hit.assumingMemoryBound(to: UInt8.self) - buffer
                let lineStart = start
                start = nl + 1
                if discarding {
                    discarding = false
                    return .tooLong
                }
                return .line(UnsafeBufferPointer(start: buffer + lineStart, count: nl - lineStart),
                             terminated: true)
            }
            if atEOF {
                guard start < end else { return .end }
                let lineStart = start
                start = end
                if discarding {
                    discarding = false
                    return .tooLong
                }
                return .line(UnsafeBufferPointer(start: buffer + lineStart, count: end - lineStart),
                             terminated: false)
            }
            if end - start >= Self.maximumLineLength {
                // Keep reading, but only to find where the monster line ends.
                discarding = true
                start = end
            }
            try fill()
        }
    }

    /// The next run of raw bytes (whatever is buffered, else one read), for parsers that cut
    /// their own tokens; nil at end of file. Do not mix with `nextLine()`.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        if start == end {
            if atEOF { return nil }
            try fill()
            if start == end { return nil }
        }
        let chunk = UnsafeBufferPointer(start: buffer + start, count: end - start)
        start = end
        return chunk
    }

    /// Moves the unread tail to the front and reads more after it.
    private func fill() throws {
        if start > 0 {
            let remaining = end - start
            if remaining > 0 { memmove(buffer, buffer + start, remaining) }
            start = 0
            end = remaining
        }
        while true {
            let n = read(fd, buffer + end, capacity - end)
            if n > 0 {
                end += n
                return
            }
            if n == 0 {
                atEOF = true
                return
            }
            if errno == EINTR { continue }
            throw TrackReadError(path: path, reason: .system(String(cString: strerror(errno))))
        }
    }
}
