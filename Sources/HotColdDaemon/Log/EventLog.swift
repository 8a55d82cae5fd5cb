import Foundation
import Glibc
import Logging
import Synchronization

/// The JSON-lines event log: one complete line per event, written with one `write(2)` to a
/// file opened with `O_APPEND`, so lines from this process never interleave or split and
/// every line is in the kernel (visible to `tail -f`) when `append` returns.
///
/// Logging never stops the daemon. When the file cannot be opened or written (directory
/// missing, disk full, permissions) the log records the error in `status`, reports it once
/// through `logger` (the journal), counts the lost lines, and tries again — reopening the
/// file — on a later `append`, at most once per `retryInterval`. When a retry succeeds it
/// says so and carries on. If a write failed halfway through a line, the next line written
/// starts with a newline so that the fragment stands alone.
///
/// `reopen()` is for SIGHUP after logrotate has moved the file: it closes the file and opens
/// the path again, creating a new file.
///
/// ```swift
/// let log = EventLog(path: "/var/log/hotcold/events.jsonl")
/// log.append(event.jsonLine)      // any thread
/// log.reopen()                    // on SIGHUP
/// if let problem = log.status.error { ... }
/// ```
public final class EventLog: Sendable {
    public let path: String
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
    }

    private let state = Mutex(State())

    /// Opens (creating with `mode`) the file now; a failure is recorded, not thrown.
    public init(path: String, mode: UInt32 = 0o640, retryInterval: Duration = .seconds(5),
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
    public func append(_ line: String) -> Bool {
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
    public func reopen() -> Bool {
        let (ok, report) = state.withLock { s -> (Bool, Report?) in
            let r = open(&s)
            if s.fd >= 0 { s.lastAttempt = nil }
            return (s.fd >= 0, r)
        }
        report.map { emit($0) }
        return ok
    }

    /// Closes the file; a later `append` opens it again.
    public func close() {
        state.withLock { s in
            if s.fd >= 0 { Glibc.close(s.fd) }
            s.fd = -1
        }
    }

    public var status: EventLogStatus {
        state.withLock { s in
            EventLogStatus(path: path, isWriting: s.error == nil, error: s.error,
                           failingSince: s.failingSince, linesWritten: s.written, linesLost: s.lost)
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
        s.fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode_t(mode))
        guard s.fd >= 0 else {
            let code = errno
            return fail(&s, "cannot open \(path): \(String(cString: strerror(code)))")
        }
        var st = stat()
        if fstat(s.fd, &st) == 0, st.st_size == 0 { s.needsNewline = false }
        return nil
    }

    private func write(_ line: String, _ s: inout State) -> (Bool, Report?) {
        var bytes: [UInt8] = []
        let prefix = s.needsNewline ? 1 : 0
        bytes.reserveCapacity(line.utf8.count + 2)
        if s.needsNewline { bytes.append(UInt8(ascii: "\n")) }
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(s.fd, $0.baseAddress! + done, bytes.count - done) }
            if n > 0 { done += n; continue }
            let code = n < 0 ? errno : ENOSPC
            if code == EINTR { continue }
            if done > prefix { s.needsNewline = true } else if done == prefix { s.needsNewline = false }
            s.lost += 1
            return (false, fail(&s, "cannot write \(path): \(String(cString: strerror(code)))"))
        }
        s.needsNewline = false
        s.written += 1
        guard s.error != nil else { return (true, nil) }
        s.error = nil
        s.failingSince = nil
        return (true, .recovered(lost: s.lost))
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
