import Foundation
import Glibc
import HotColdCore
import HotColdProtocol

/// Reads published events back from the event log, for `watch` with `since`: the current
/// file, then the one logrotate moved to `PATH.1` (uncompressed: `delaycompress`), newest
/// line first, stopping at the number asked for.
///
/// Bounded in memory and time: it keeps at most `maxLines` lines and `maxBytes` bytes, reads
/// at most `maxScanBytes`, and a line longer than `maxLineBytes` is skipped unread. It only
/// reads; the daemon keeps appending meanwhile (whole lines, one `write` each), and a line
/// still without its newline at the end of the file is left out. Lines without a header
/// (`{"class":…,"seq":N`: older releases, fragments of a failed write) are skipped.
///
/// ```swift
/// let r = EventLogReader().read(path: "/var/log/hotcold/events.jsonl", after: 41, before: 90) { _, _ in true }
/// r.lines.first?.seq   // 42, when the log still holds it
/// r.isComplete         // false when 42 was rotated away (r.firstSeq says where it starts)
/// ```
struct EventLogReader: Sendable {
    var maxLines = 65_536
    var maxBytes = 16 << 20
    var maxScanBytes = 128 << 20
    var maxLineBytes = 1 << 20
    var chunkBytes = 64 << 10

    init() {}

    struct Result: Sendable, Equatable {
        /// The wanted lines, oldest first, with their numbers.
        var lines: [Line]
        /// True when nothing between `after` and `before` is missing: the log reached back to
        /// `after` (or holds `after + 1`).
        var isComplete: Bool
        /// When not complete: the first number from which the log is complete (every later
        /// wanted event is in `lines`).
        var firstSeq: Int
        /// The highest number a GAP marker in the range covers: events up to it may be missing
        /// even though the file reaches back (a power cut, a disk that did not keep up).
        var gapThrough: Int? = nil
    }

    struct Line: Sendable, Equatable {
        var seq: Int
        var text: String
    }

    /// Lines numbered above `after` and below `before` that `accept` takes (given the line's
    /// header and bytes).
    func read(path: String, after: Int, before: Int,
                     accept: (PublishedLineHeader, ArraySlice<UInt8>) -> Bool) -> Result {
        guard after + 1 < before else { return Result(lines: [], isComplete: true, firstSeq: after + 1) }
        var newestFirst: [Line] = []
        var kept = 0
        var scanned = 0
        var reachedAfter = false
        var stopped = false
        var oldestSeen: Int? = nil
        var limitSeq: Int? = nil
        var gapThrough: Int? = nil

        for file in [path, path + ".1"] where !reachedAfter && !stopped {
            scanBackward(file, scanned: &scanned) { bytes in
                guard let h = Self.header(bytes) else { return true }
                if h.seq >= before { return true }
                if h.seq <= after {
                    reachedAfter = true
                    return false
                }
                oldestSeen = h.seq
                if h.className == GapEvent.wireClass { gapThrough = max(gapThrough ?? h.seq, h.seq) }
                guard accept(h, bytes) else { return true }
                if newestFirst.count >= maxLines || kept + bytes.count > maxBytes {
                    limitSeq = h.seq
                    stopped = true
                    return false
                }
                kept += bytes.count
                newestFirst.append(Line(seq: h.seq, text: String(decoding: bytes, as: UTF8.self)))
                return true
            }
            if scanned >= maxScanBytes, !reachedAfter, limitSeq == nil {
                limitSeq = oldestSeen.map { $0 - 1 } ?? (before - 1)
                stopped = true
            }
        }
        let lines = Array(newestFirst.reversed())
        if reachedAfter || (limitSeq == nil && oldestSeen == after + 1) {
            return Result(lines: lines, isComplete: true, firstSeq: after + 1, gapThrough: gapThrough)
        }
        let first = limitSeq.map { $0 + 1 } ?? oldestSeen ?? before
        return Result(lines: lines, isComplete: false, firstSeq: first, gapThrough: gapThrough)
    }

    /// The header of a whole published line: a line that does not end its object (a fragment
    /// of a failed write that could not be cut off) is no event, whatever its start says.
    static func header(_ bytes: ArraySlice<UInt8>) -> PublishedLineHeader? {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "}") else { return nil }
        return PublishedLineHeader(utf8: bytes)
    }

    /// The highest number in the log (current file, else `.1`), reading only its tail.
    func lastSequence(path: String) -> Int? {
        var reader = self
        reader.maxScanBytes = 1 << 20
        for file in [path, path + ".1"] {
            var best: Int? = nil
            var scanned = 0
            reader.scanBackward(file, scanned: &scanned) { bytes in
                guard let h = Self.header(bytes) else { return true }
                best = h.seq
                return false
            }
            if let best { return best }
        }
        return nil
    }

    /// Calls `visit` with each complete line of the file, last line first, until it returns
    /// false, the file's start, or `maxScanBytes` in all (`scanned` carries the count over files).
    func scanBackward(_ path: String, scanned: inout Int, visit: (ArraySlice<UInt8>) -> Bool) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return }
        var pos = Int(st.st_size)
        // The bytes after the last newline of the file have no newline yet: not a line.
        var tailIsLine = false
        // The start of a line that began before the chunk just read (read earlier, later in the file).
        var carry: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while pos > 0, scanned < maxScanBytes {
            let want = min(chunkBytes, pos)
            pos -= want
            var got = 0
            while got < want {
                let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, want - got, off_t(pos + got)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                got += n
            }
            scanned += want
            var buffer = Array(chunk[..<want])
            buffer.append(contentsOf: carry)
            // Newlines, last first: each line ends at one and starts after the previous one.
            var end = buffer.count
            var i = buffer.count - 1
            var first = true
            while i >= 0 {
                if buffer[i] == 10 {
                    if first {
                        if tailIsLine, i + 1 < end { if !visit(buffer[(i + 1)..<end]) { return } }
                        first = false
                    } else if i + 1 < end {
                        if !visit(buffer[(i + 1)..<end]) { return }
                    }
                    end = i
                }
                i -= 1
            }
            if first {
                // No newline in the whole buffer: one long line, or its middle.
                carry = buffer
                if carry.count > maxLineBytes { carry = []; tailIsLine = false }
                continue
            }
            carry = Array(buffer[..<end])
            tailIsLine = true
            if carry.count > maxLineBytes { carry = []; tailIsLine = false }
        }
        if pos == 0, tailIsLine, !carry.isEmpty { _ = visit(carry[...]) }
    }
}
