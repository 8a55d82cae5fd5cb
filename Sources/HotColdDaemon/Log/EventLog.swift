import Foundation
import Glibc
import Logging
import Synchronization

/// The JSON-lines event log: complete lines only, written with `write(2)` to a file opened
/// with `O_APPEND`, so lines never interleave and every line is in the kernel (visible to
/// `tail -f`) when the write returns.
///
/// The file never keeps part of a line: when a write stops halfway (disk full), the file is
/// truncated back to where that write began, so a reader never finds a fragment that looks
/// like an event. (Should even the truncation fail, the next write starts with a newline, and
/// the reader skips any line that does not end its object.)
///
/// Only the ``LogWriter``'s thread writes in the daemon; whatever `write(2)` does to it (a
/// frozen or slow disk, a FIFO nobody reads) holds up that thread and nothing else. Opening
/// never blocks either (a FIFO without a reader is an error, retried later).
///
/// When the file cannot be opened or written (directory missing, disk full, permissions) the
/// log records the error in `status`, reports it once through `logger` (the journal), and
/// tries again, reopening the file. When a retry succeeds it says so and carries on.
/// `append` (single lines, rate-limited retries, lost lines counted here) is the simple use;
/// ``write(block:lines:)`` is the writer's: it always tries and leaves the counting of what
/// could not be written to its caller, which keeps the lines and tries again.
///
/// `reopen()` is for SIGHUP after logrotate has moved the file: it closes the file and opens
/// the path again, creating a new file.
///
/// ```swift
/// let log = EventLog(path: "/var/log/hotcold/events.jsonl")
/// log.append(line)                // one line
/// log.write(block: bytes, lines: 3)   // three whole lines, all or none
/// log.reopen()                    // on SIGHUP
/// if let problem = log.status.error { ... }
/// ```
final class EventLog: Sendable {
    let path: String
    private let retryInterval: Duration
    private let mode: UInt32
    private let logger: Logger
    private let clock = ContinuousClock()

    private struct State {
        var fd: Int32 = -1
        var error: String?
        var failingSince: Date?
        var lastAttempt: ContinuousClock.Instant?
        var needsNewline = false
        var written = 0
        var lost = 0
        var syncs = 0
    }

    private let state = Mutex(State())

    /// Opens (creating with `mode`) the file now; a failure is recorded, not thrown.
    init(path: String, mode: UInt32 = 0o640, retryInterval: Duration = .seconds(5),
                logger: Logger = Logger(label: "hotcold.log")) {
        self.path = path
        self.mode = mode
        self.retryInterval = retryInterval
        self.logger = logger
        let report = state.withLock { s in open(&s) }
        report.map { emit($0) }
    }

    deinit {
        state.withLock { s in
            if s.fd >= 0 { Glibc.close(s.fd) }
        }
    }

    /// Appends `line` (no trailing newline; it must not contain one) and a newline.
    /// Returns false if the line was lost. Any thread; the file's lines stay in call order.
    @discardableResult
    func append(_ line: String) -> Bool {
        let (ok, report) = state.withLock { s -> (Bool, Report?) in
            if s.error != nil || s.fd < 0 {
                // lastAttempt is nil right after a successful reopen(): write at once.
                if let last = s.lastAttempt, clock.now - last < retryInterval {
                    s.lost += 1
                    return (false, nil)
                }
                if s.lastAttempt != nil || s.fd < 0, let report = open(&s) {
                    s.lost += 1
                    return (false, report)
                }
                if s.fd < 0 {
                    s.lost += 1
                    return (false, nil)
                }
            }
            return write(line, &s)
        }
        report.map { emit($0) }
        return ok
    }

    /// Closes the file and opens the path again (after logrotate moved it, or to retry now
    /// after a failure). Returns whether the file could be opened; whether it can be written
    /// shows on the next `append`.
    @discardableResult
    func reopen() -> Bool {
        let (ok, report) = state.withLock { s -> (Bool, Report?) in
            let r = open(&s)
            if s.fd >= 0 { s.lastAttempt = nil }
            return (s.fd >= 0, r)
        }
        report.map { emit($0) }
        return ok
    }

    /// Closes the file; a later `append` opens it again.
    func close() {
        state.withLock { s in
            if s.fd >= 0 { Glibc.close(s.fd) }
            s.fd = -1
        }
    }

    var status: EventLogStatus {
        state.withLock { s in
            EventLogStatus(path: path, isWriting: s.error == nil, error: s.error,
                           failingSince: s.failingSince, linesWritten: s.written, linesLost: s.lost, syncs: s.syncs)
        }
    }

    // MARK: - under the lock

    private enum Report {
        case failing(String)
        case recovered(lost: Int)
    }

    /// (Re)opens the file. Returns what to report (outside the lock), if anything.
    private func open(_ s: inout State) -> Report? {
        if s.fd >= 0 { Glibc.close(s.fd) }
        s.lastAttempt = clock.now
        // O_NONBLOCK only while opening: a FIFO without a reader fails (ENXIO) instead of
        // waiting for one; writes then block as usual, on the writer's thread.
        s.fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, mode_t(mode))
        guard s.fd >= 0 else {
            let code = errno
            let why = code == ENXIO ? "no process is reading it" : String(cString: strerror(code))
            return fail(&s, "cannot open \(path): \(why)")
        }
        let flags = fcntl(s.fd, F_GETFL)
        if flags >= 0 { _ = fcntl(s.fd, F_SETFL, flags & ~O_NONBLOCK) }
        var st = stat()
        if fstat(s.fd, &st) == 0, st.st_size == 0 { s.needsNewline = false }
        return nil
    }

    private func write(_ line: String, _ s: inout State) -> (Bool, Report?) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 1)
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let (ok, report) = writeWhole(bytes, lines: 1, &s)
        if !ok { s.lost += 1 }
        return (ok, report)
    }

    /// Writes `bytes` (whole lines, each ending in a newline) or, on failure, nothing: a write
    /// that stopped halfway is cut off again with `ftruncate`.
    private func writeWhole(_ block: [UInt8], lines: Int, _ s: inout State) -> (Bool, Report?) {
        var bytes: [UInt8] = []
        if s.needsNewline {
            bytes.reserveCapacity(block.count + 1)
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: block)
        } else {
            bytes = block
        }
        // Where this write begins: O_APPEND writes at the end, and only this process appends.
        let start = lseek(s.fd, 0, SEEK_END)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(s.fd, $0.baseAddress! + done, bytes.count - done) }
            if n > 0 { done += n; continue }
            let code = n < 0 ? errno : ENOSPC
            if code == EINTR { continue }
            if done > 0 {
                // Keep no fragment: back to where the write began (a FIFO cannot be cut; a
                // newline then keeps the next line apart from what was sent).
                if start < 0 || ftruncate(s.fd, start) != 0 { s.needsNewline = true }
            }
            return (false, fail(&s, "cannot write \(path): \(String(cString: strerror(code)))"))
        }
        s.needsNewline = false
        s.written += lines
        guard s.error != nil else { return (true, nil) }
        s.error = nil
        s.failingSince = nil
        return (true, .recovered(lost: s.lost))
    }

    /// Writes a block of whole lines (each ending in a newline), all or none; opens the file
    /// first when it is not open. Never rate-limited and never counts lost lines: the caller
    /// keeps what was not written and decides when to try again. May block as long as the
    /// file's `write(2)` does — call it from the writer's own thread.
    func write(block: [UInt8], lines: Int) -> Bool {
        let (ok, report) = state.withLock { s -> (Bool, Report?) in
            if s.fd < 0 || s.error != nil {
                let report = open(&s)
                if s.fd < 0 { return (false, report) }
            }
            return writeWhole(block, lines: lines, &s)
        }
        report.map { emit($0) }
        return ok
    }

    /// Makes what was written durable (`fdatasync`): lines written are in the kernel, not on
    /// the disk, until this returns true. Call it from the writer's thread.
    func sync() -> Bool {
        let fd = state.withLock { s -> Int32 in s.fd >= 0 ? dup(s.fd) : -1 }
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        let ok = fdatasync(fd) == 0
        state.withLock { $0.syncs += 1 }
        return ok
    }

    /// Counts lines given up by the caller of ``write(block:lines:)`` (for `status`).
    func countLost(_ n: Int) {
        state.withLock { $0.lost += n }
    }

    private func fail(_ s: inout State, _ message: String) -> Report? {
        s.lastAttempt = clock.now
        let first = s.error == nil
        s.error = message
        if first {
            s.failingSince = Date()
            return .failing(message)
        }
        return nil
    }

    private func emit(_ report: Report) {
        switch report {
        case .failing(let message):
            logger.error("event log: \(message); events are not logged until it works again (retrying at most every \(retryInterval))")
        case .recovered(let lost):
            logger.notice("event log: writing \(path) again (\(lost) lines lost in all)")
        }
    }
}
