#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HotColdCore

/// Reads a recorded GPS track — NMEA 0183, gpsd JSON (`gpspipe -w`) or GPX, told apart by
/// content — as a stream of `Fix` values, in 64 KiB chunks, so memory does not grow with the file.
///
/// ```swift
/// let reader = try TrackReader(path: "drive.nmea")
/// while let fix = try reader.next() {
///     if fix.hasPosition { print(fix.time, fix.coordinate!) }
/// }
/// if let note = reader.stats.skipSummary { FileHandle.standardError.write(Data((note + "\n").utf8)) }
/// ```
///
/// Damaged input never stops the reader: bad lines are skipped and counted in `stats`. Only a
/// file that cannot be read as a track at all throws a `TrackReadError` (from `init`, or from
/// `next()` for GPX that breaks before its first point, or an I/O error).
/// Times are passed on as recorded: out of order, duplicated or decades off, they are the
/// consumer's business.
public final class TrackReader {
    public let path: String
    public let format: TrackFormat

    private enum Decoder {
        case nmea(NMEAReader)
        case gpsdJSON(GPSDJSONReader)
        case gpx(GPXTrackReader)
    }

    /// The file's size in bytes when opened (for progress: how far `bytesRead` has to go).
    public let fileSize: Int
    private let fd: Int32
    private let decoder: Decoder

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TrackReadError(path: path, reason: .system(Self.errorText())) }
        var ok = false
        defer { if !ok { close(fd) } }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw TrackReadError(path: path, reason: .system(Self.errorText())) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw TrackReadError(path: path, reason: .isDirectory) }
        guard kind == S_IFREG else { throw TrackReadError(path: path, reason: .notRegularFile) }
        fileSize = max(0, Int(info.st_size))

        let prefix = try Self.readPrefix(fd: fd, path: path)
        let detected = try prefix.withUnsafeBufferPointer { p in
            try TrackFormatDetector.detect(prefix: p) { needle in
                try Self.search(fd: fd, path: path, for: needle, from: max(0, prefix.count - needle.count + 1))
            }
        }
        switch detected {
        case .success(let f): format = f
        case .failure(let reason): throw TrackReadError(path: path, reason: reason)
        }
        let lines = LineReader(fd: fd, path: path)
        switch format {
        case .nmea: decoder = .nmea(NMEAReader(lines: lines))
        case .gpsdJSON: decoder = .gpsdJSON(GPSDJSONReader(lines: lines))
        case .gpx: decoder = .gpx(GPXTrackReader(lines: lines, path: path))
        }
        self.fd = fd
        ok = true
    }

    deinit { close(fd) }

    /// The next fix, nil at the end of the track.
    public func next() throws -> Fix? {
        switch decoder {
        case .nmea(let r): try r.next()
        case .gpsdJSON(let r): try r.next()
        case .gpx(let r): try r.next()
        }
    }

    /// Calls `body` with every remaining fix.
    public func forEach(_ body: (Fix) throws -> Void) throws {
        while let fix = try next() { try body(fix) }
    }

    /// How far into the file reading has got, in bytes: the kernel's file offset, which runs
    /// at most one read buffer ahead of the fixes returned. For progress, not for seeking.
    public var bytesRead: Int { max(0, Int(lseek(fd, 0, SEEK_CUR))) }

    /// What was read, used, ignored and skipped so far.
    public var stats: ReplayStats {
        switch decoder {
        case .nmea(let r): r.stats
        case .gpsdJSON(let r): r.stats
        case .gpx(let r): r.stats
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    private static func readPrefix(fd: Int32, path: String) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: TrackFormatDetector.sniffLength)
        var filled = 0
        while filled < buffer.count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if n > 0 { filled += n; continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            throw TrackReadError(path: path, reason: .system(errorText()))
        }
        buffer.removeLast(buffer.count - filled)
        return buffer
    }

    /// Whether the file holds `needle` at or after `offset`, read in chunks that overlap by
    /// the needle's length so a match across a boundary is found.
    private static func search(fd: Int32, path: String, for needle: [UInt8], from offset: Int) throws -> Bool {
        let size = TrackFormatDetector.sniffLength
        var buffer = [UInt8](repeating: 0, count: size)
        var position = offset
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, size, off_t(position)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TrackReadError(path: path, reason: .system(errorText()))
            }
            if n < needle.count { return false }
            let found = buffer.withUnsafeBufferPointer {
                TrackFormatDetector.contains(UnsafeBufferPointer(rebasing: $0[0..<n]), needle)
            }
            if found { return true }
            position += n - needle.count + 1
        }
    }
}
