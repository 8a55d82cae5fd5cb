import Foundation
import HotColdProtocol
import Logging
import Synchronization

/// The event log's own thread and bounded queue: the output stage hands it numbered lines and
/// never waits; this thread does the `write(2)`s, so a slow SD card, a frozen filesystem or a
/// FIFO nobody reads holds up this thread and nothing else — not the engine, not the socket's
/// subscribers, not the watchdog.
///
/// Nothing accepted is lost quietly. Lines wait here while the disk is slow or failing and are
/// written, in order, once it works again (retried every `retryInterval`). Only when more than
/// `maxQueuedLines` or `maxQueuedBytes` wait are the newest ones given up — counted in
/// `status` (`lines_dropped`) — and a ``GapEvent`` marker takes their place in the file, so a
/// `watch` with `since` that crosses the hole says which numbers it cannot give back. Lines
/// still queued are part of what such a replay sends (``pending(before:)``).
///
/// Every write is of whole lines, all or none (``EventLog/write(block:lines:)``).
///
/// What is written is synced in groups, so a power cut (the car's ignition) loses at most
/// `syncInterval` of the log: the first line written after a sync starts the clock, and one
/// `fdatasync` covers everything written until it fires. A line marked `urgent` (an ARRIVED,
/// a DEPARTED, a user's RECORD) is synced as soon as it is written. Nothing is synced while
/// nothing is logged, so a parked car with no events costs the flash nothing. What a cut
/// still takes is announced at the next start (``UncleanStop``).
///
/// ```swift
/// let writer = LogWriter(log: EventLog(path: "/var/log/hotcold/events.jsonl"), logger: logger)
/// Thread { writer.run() }.start()         // LogWriterService does this in its run()
/// writer.enqueue(seq: 42, line: line)    // any thread, never blocks
/// writer.finish(grace: .seconds(2))      // drain, then run() returns
/// ```
final class LogWriter: Sendable {
    struct Limits: Sendable {
        /// Lines that may wait for the disk; beyond either bound the newest are given up.
        var maxQueuedLines = 100_000
        var maxQueuedBytes = 16 << 20
        /// At most this much goes to one `write(2)`.
        var maxBlockBytes = 256 << 10
        /// How long to wait before writing again after a failed write.
        var retryInterval: Duration = .seconds(1)
        /// The longest a written line waits for its sync (what a power cut may take).
        var syncInterval: Duration = .seconds(1)
        init() {}
    }

    /// What waits to be written: an event line, or the marker for lines given up.
    enum Entry: Sendable {
        case line(seq: Int, text: String, urgent: Bool)
        case gap(first: Int, last: Int, lost: Int, reason: String)

        var lineCount: Int {
            if case .line = self { 1 } else { 0 }
        }

        /// Synced as soon as it is written (an arrival, a departure, a user's record); a gap
        /// marker is too, since it tells what the file will never hold.
        var isUrgent: Bool {
            switch self {
            case .line(_, _, let urgent): urgent
            case .gap: true
            }
        }
    }

    private struct State {
        public var log: EventLog?
        var replacement: EventLog?
        var reopenRequested = false
        var queue: [Entry] = []
        var head = 0
        var queuedLines = 0
        var queuedBytes = 0
        /// Taken from the queue, being written (kept until the write succeeds).
        var inflight: [Entry] = []
        var writingSince: ContinuousClock.Instant?
        var dropped = 0
        var gapsWritten = 0
        var stopping = false
        var grace: Duration = .seconds(2)
        var logStatus: EventLogStatus?
        var queueError: String?
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let limits: Limits
    private let logger: Logger
    private let clock = ContinuousClock()

    init(log: EventLog?, limits: Limits = Limits(), logger: Logger) {
        self.state = Mutex(State(log: log, logStatus: log?.status))
        self.limits = limits
        self.logger = logger
    }

    /// The log's path (for `watch` with `since`).
    var path: String? { state.withLock { ($0.replacement ?? $0.log)?.path } }

    // MARK: - Producers (any thread, never block)

    /// Queues one numbered line. Never blocks; when the queue is full the line is given up and
    /// a gap marker stands for it.
    func enqueue(seq: Int, line: String, urgent: Bool = false) {
        let first = state.withLock { s -> Bool in
            guard s.log != nil || s.replacement != nil else { return false }
            let wasEmpty = s.head == s.queue.count
            let bytes = line.utf8.count + 1
            if s.queuedLines >= limits.maxQueuedLines || s.queuedBytes + bytes > limits.maxQueuedBytes {
                s.dropped += 1
                if s.queueError == nil {
                    s.queueError = "more than \(s.queuedLines) lines (\(s.queuedBytes) bytes) waited for the disk"
                    logger.error("event log: \(s.queueError!); newer events are left out of the log (a GAP line will say which) until it catches up")
                }
                let reason = s.logStatus?.error ?? "the disk did not keep up: \(s.queueError!)"
                if s.queue.count > s.head, case .gap(let first, _, let lost, let r) = s.queue[s.queue.count - 1] {
                    s.queue[s.queue.count - 1] = .gap(first: first, last: seq, lost: lost + 1, reason: r)
                } else {
                    s.queue.append(.gap(first: seq, last: seq, lost: 1, reason: reason))
                }
                return wasEmpty
            }
            s.queue.append(.line(seq: seq, text: line, urgent: urgent))
            s.queuedLines += 1
            s.queuedBytes += bytes
            return wasEmpty
        }
        if first { wake.signal() }
    }

    /// Reopens the file on the writer's thread (SIGHUP after logrotate); never waits for it.
    func requestReopen() {
        state.withLock { $0.reopenRequested = true }
        wake.signal()
    }

    /// Writes to `log` from now on (a reload changed the path); the old file is closed.
    func replace(with log: EventLog) {
        state.withLock { $0.replacement = log }
        wake.signal()
    }

    /// Lines numbered below `end` not yet in the file (queued or being written), oldest first,
    /// with gap markers for those given up: what a replay needs beside the file.
    func pending(before end: Int) -> [EventLogReader.Line] {
        let entries = state.withLock { s in s.inflight + s.queue[s.head...] }
        var out: [EventLogReader.Line] = []
        for e in entries {
            switch e {
            case .line(let seq, let text, _) where seq < end:
                out.append(.init(seq: seq, text: text))
            case .gap(let first, let last, let lost, let reason) where first < end:
                out.append(.init(seq: last, text: Self.marker(first: first, last: last, lost: lost, reason: reason)))
            default:
                break
            }
        }
        return out
    }

    /// The log's state for `status`, from what the writer last saw: never waits for the disk.
    var status: EventLogStatus? {
        state.withLock { s in
            guard var st = s.logStatus else { return nil }
            st.queued = s.queuedLines + s.inflight.reduce(0) { $0 + $1.lineCount }
            st.dropped = s.dropped
            st.gaps = s.gapsWritten
            if let since = s.writingSince {
                let stalled = (clock.now - since).seconds
                if stalled >= 1 {
                    st.stalledSeconds = stalled
                    st.isWriting = false
                    if st.error == nil { st.error = "a write to \(st.path) has not returned for \(Int(stalled)) s" }
                }
            }
            return st
        }
    }

    // MARK: - The writer's thread

    private enum Job {
        case write([Entry], EventLog)
        case sync(EventLog)
        case wait(Duration)
        case stop
    }

    /// The writer's loop: returns after ``finish(grace:)`` once everything is written, or the
    /// grace has passed with the disk still refusing (what is left is counted as lost).
    public func run() {
        var finishBy: ContinuousClock.Instant?
        // Written and not yet synced since then (nil: nothing at risk).
        var unsyncedSince: ContinuousClock.Instant?
        var syncNow = false
        // In a burst (a sync less than `burstWithin` ago), an urgent sync waits `gather` for
        // the lines on their way, so a burst of records shares syncs; a lone one goes at once.
        var lastSync: ContinuousClock.Instant?
        var urgentAt: ContinuousClock.Instant?
        let gather = Duration.milliseconds(3), burstWithin = Duration.milliseconds(100)
        while true {
            let (job, reopen, retired) = state.withLock { s -> (Job, EventLog?, EventLog?) in
                // What was written is synced when its time is up, when an urgent line asks,
                // and before the file is reopened (logrotate), replaced or the writer stops.
                if let since = unsyncedSince, let log = s.log,
                   syncNow || s.replacement != nil || s.reopenRequested || s.stopping
                    || clock.now - since >= limits.syncInterval {
                    let now = clock.now
                    if syncNow, !s.stopping, s.replacement == nil, !s.reopenRequested,
                       let last = lastSync, now - last < burstWithin, let u = urgentAt, now - u < gather {
                        // Gathering: lines that came meanwhile are written first, then one sync.
                        if s.head == s.queue.count { return (.wait(gather - (now - u)), nil, nil) }
                    } else {
                        return (.sync(log), nil, nil)
                    }
                }
                var retired: EventLog?
                if let r = s.replacement {
                    retired = s.log
                    s.log = r
                    s.replacement = nil
                    s.logStatus = r.status
                }
                var reopen: EventLog?
                if s.reopenRequested {
                    s.reopenRequested = false
                    reopen = s.log
                }
                if s.stopping, finishBy == nil { finishBy = clock.now + stopGrace(s) }
                guard let log = s.log else { return (s.stopping ? .stop : .wait(.seconds(1)), reopen, retired) }
                if s.inflight.isEmpty { s.inflight = take(&s) }
                if s.inflight.isEmpty {
                    if s.stopping { return (.stop, reopen, retired) }
                    let wait = unsyncedSince.map { limits.syncInterval - (clock.now - $0) } ?? .seconds(1)
                    return (.wait(max(wait, .milliseconds(1))), reopen, retired)
                }
                s.writingSince = clock.now
                return (.write(s.inflight, log), reopen, retired)
            }
            retired?.close()
            if let reopen { _ = reopen.reopen() }
            switch job {
            case .stop:
                return
            case .sync(let log):
                if !log.sync() { logger.warning("event log: cannot sync \(log.path); its last lines may not survive a power cut") }
                unsyncedSince = nil
                syncNow = false
                urgentAt = nil
                lastSync = clock.now
                let status = log.status
                state.withLock { $0.logStatus = status }
            case .wait(let d):
                _ = wake.wait(timeout: .now() + d.timeInterval)
            case .write(let entries, let log):
                let (bytes, lines) = Self.render(entries)
                let ok = log.write(block: bytes, lines: lines)
                let status = log.status
                state.withLock { s in
                    s.writingSince = nil
                    s.logStatus = status
                    guard ok else {
                        // The disk may have room for less: try half as much next time.
                        giveBackHalf(&s)
                        return
                    }
                    s.gapsWritten += entries.count - lines
                    s.inflight = []
                    if unsyncedSince == nil { unsyncedSince = clock.now }
                    if entries.contains(where: \.isUrgent) {
                        syncNow = true
                        if urgentAt == nil { urgentAt = clock.now }
                    }
                    if s.queueError != nil, s.queuedLines < limits.maxQueuedLines / 2 {
                        s.queueError = nil
                    }
                }
                if !ok {
                    if let finishBy, clock.now >= finishBy {
                        giveUp(log)
                        return
                    }
                    _ = wake.wait(timeout: .now() + limits.retryInterval.timeInterval)
                }
            }
        }
    }

    /// Asks ``run()`` to write what is queued and return; when the disk keeps refusing, it
    /// returns after `grace`.
    func finish(grace: Duration = .seconds(2)) {
        state.withLock { s in
            s.stopping = true
            s.grace = grace
        }
        wake.signal()
    }

    private func stopGrace(_ s: State) -> Duration { s.grace }

    /// Takes the next block off the queue (under the lock).
    private func take(_ s: inout State) -> [Entry] {
        var out: [Entry] = []
        var bytes = 0
        while s.head < s.queue.count, bytes < limits.maxBlockBytes {
            let e = s.queue[s.head]
            s.head += 1
            if case .line(_, let text, _) = e {
                s.queuedLines -= 1
                s.queuedBytes -= text.utf8.count + 1
                bytes += text.utf8.count + 1
            }
            out.append(e)
        }
        // Drop the consumed prefix now and then, so the array does not grow forever.
        if s.head == s.queue.count {
            s.queue.removeAll(keepingCapacity: s.queue.count < 4096)
            s.head = 0
        } else if s.head > 4096, s.head * 2 > s.queue.count {
            s.queue.removeFirst(s.head)
            s.head = 0
        }
        return out
    }

    /// Returns the second half of a block that could not be written to the queue's front, so
    /// a disk with a little room takes what fits (down to one line at a time).
    private func giveBackHalf(_ s: inout State) {
        guard s.inflight.count > 1 else { return }
        let keep = s.inflight.count / 2
        let rest = Array(s.inflight[keep...])
        s.inflight.removeSubrange(keep...)
        s.queue.insert(contentsOf: rest, at: s.head)
        for case .line(_, let text, _) in rest {
            s.queuedLines += 1
            s.queuedBytes += text.utf8.count + 1
        }
    }

    /// Counts what could not be written at shutdown and says so in the journal.
    private func giveUp(_ log: EventLog) {
        let (lines, range, reason) = state.withLock { s -> (Int, (Int, Int)?, String) in
            let left = s.inflight + s.queue[s.head...]
            s.inflight = []
            s.queue = []
            s.head = 0
            s.queuedLines = 0
            s.queuedBytes = 0
            var seqs: [Int] = []
            var n = 0
            for e in left {
                switch e {
                case .line(let seq, _, _): n += 1; seqs.append(seq)
                case .gap(let f, let l, let lost, _): n += lost; seqs.append(contentsOf: [f, l])
                }
            }
            let range = seqs.min().flatMap { lo in seqs.max().map { (lo, $0) } }
            return (n, range, s.logStatus?.error ?? "the log could not be written")
        }
        log.countLost(lines)
        if let range {
            logger.error("event log: \(lines) events (seq \(range.0)–\(range.1)) not written at shutdown: \(reason)")
        }
    }

    /// The bytes of one write and the number of event lines in it.
    static func render(_ entries: [Entry]) -> ([UInt8], Int) {
        var bytes: [UInt8] = []
        var lines = 0
        for e in entries {
            switch e {
            case .line(_, let text, _):
                bytes.append(contentsOf: text.utf8)
                lines += 1
            case .gap(let first, let last, let lost, let reason):
                bytes.append(contentsOf: marker(first: first, last: last, lost: lost, reason: reason).utf8)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return (bytes, lines)
    }

    static func marker(first: Int, last: Int, lost: Int, reason: String) -> String {
        WireCoding.line(GapEvent(seq: last, firstSeq: first, lost: lost, reason: reason, time: Date()))
    }
}

extension Duration {
    /// For Dispatch's timeouts.
    var timeInterval: DispatchTimeInterval {
        let (s, attos) = components
        return .nanoseconds(Int(clamping: s * 1_000_000_000 + attos / 1_000_000_000))
    }
}
