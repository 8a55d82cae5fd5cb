#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol
import Synchronization

/// One browser's view of the daemon: its own socket connection, `watch` resumed from the
/// browser's `Last-Event-ID`, and a STATUS every `statusInterval`, turned into SSE frames on a
/// bounded stream.
///
/// **Nothing missed.** Each event frame's id is the daemon's `seq`. When the daemon connection
/// drops, the feed reconnects by itself with `since` = the last number it passed on; when the
/// browser's connection drops (hotcold-web restarted, the phone slept, or this feed cut a slow
/// reader off), the browser reconnects with `Last-Event-ID` and a new feed starts from there.
/// Numbers at or below the last one passed on (the log's replay overlapping) are skipped.
///
/// **Bounded.** The stream holds at most `queue` frames; a browser that lets it fill is cut off
/// (counted in `LiveSlots.dropped`) rather than buffered without end — its reconnection resumes
/// from the daemon's log, so the cut loses nothing.
///
/// The socket is read on a thread of its own (LineClient blocks), never on Swift's
/// cooperative pool.
public final class DaemonFeed: Sendable {
    /// Set when the browser went away or the feed cut it off (shared with the stream's
    /// termination handler, hence a class).
    final class StopFlag: Sendable {
        private let flag = Mutex(false)
        func set() { flag.withLock { $0 = true } }
        var isSet: Bool { flag.withLock { $0 } }
    }

    public let socketPath: String
    public let statusInterval: Double
    private let stopped = StopFlag()
    private let continuation: AsyncStream<SSEFrame>.Continuation
    public let frames: AsyncStream<SSEFrame>
    private let lastSeq: Mutex<UInt64?>
    /// Told once when the feed cut a slow browser off.
    private let onDrop: @Sendable () -> Void

    public init(socketPath: String, since: UInt64?, statusInterval: Double, queue: Int,
                onDrop: @escaping @Sendable () -> Void = {}) {
        self.socketPath = socketPath
        self.statusInterval = statusInterval
        self.lastSeq = Mutex(since)
        self.onDrop = onDrop
        let (stream, continuation) = AsyncStream.makeStream(of: SSEFrame.self, bufferingPolicy: .bufferingOldest(queue))
        frames = stream
        self.continuation = continuation
        let flag = stopped
        continuation.onTermination = { _ in flag.set() }
    }

    /// Starts the reading thread.
    public func start() throws(BlockingThread.NotStarted) {
        try BlockingThread.start(name: "hotcold-web feed") { [self] in run() }
    }

    public func stop() {
        stopped.set()
        continuation.finish()
    }

    private var isStopped: Bool { stopped.isSet }

    /// Queues a frame; false (and the stream ends) when the browser is too far behind.
    private func emit(_ f: SSEFrame) -> Bool {
        switch continuation.yield(f) {
        case .enqueued: return true
        case .dropped:
            onDrop()
            stop()
            return false
        case .terminated:
            stopped.set()
            return false
        @unknown default:
            return false
        }
    }

    private func run() {
        _ = emit(.retry(milliseconds: 1000))
        var backoff = Backoff(initial: .milliseconds(200), cap: .seconds(2))
        var lastReason = ""
        while !isStopped {
            do {
                let c = try LineClient(path: socketPath)
                c.maxLineBytes = 1 << 20
                backoff.reset()
                guard emit(.state(name: "link", data: #"{"up":true}"#)) else { break }
                lastReason = follow(c)
            } catch {
                lastReason = error.description
            }
            if isStopped { break }
            guard emit(.state(name: "link", data: LinkState(up: false, reason: lastReason).json)) else { break }
            let wait = backoff.nextDelay()
            let until = ContinuousClock.now + wait
            while !isStopped, ContinuousClock.now < until { BlockingThread.sleep(seconds: 0.05) }
        }
        continuation.finish()
    }

    /// Events a page opened afresh (no Last-Event-ID) is sent from the log before the live
    /// stream, so it shows the latest ARRIVED/DEPARTED even when that happened before it opened.
    static let recentOnFreshLoad = 200

    /// Watches on one connection until it ends or the feed stops; returns why it ended.
    ///
    /// A STATUS goes first, before the watch, on a fresh load and on a resume alike: the events
    /// replayed from the log then all carry numbers at or below its `sequence.last`, which tells
    /// the page they are history already reflected in that STATUS (they fill the page's history
    /// and never replace its live state with something older).
    private func follow(_ c: LineClient) -> String {
        let resume = lastSeq.withLock { $0 }
        var since = resume.flatMap { Int(exactly: $0) }.flatMap { $0 <= Limits.maxInteger ? $0 : nil }
        let status = try? c.call(.status, expecting: StatusReply.self, timeout: 5)
        let last = status?.sequence?.last
        // A number the daemon never handed out (past its log's end, or past 2^53: a browser
        // from another box, a forged header, a log started afresh) would silence the page for
        // good — every real event is below it. Say so and start afresh.
        if let resume, since == nil || (last.map { resume > UInt64(max(0, $0)) } ?? false) {
            lastSeq.withLock { $0 = nil }
            since = nil
            let gap = BeyondEnd(asked: resume.description, last: last).json
            guard emit(.state(name: "gap", data: gap)) else { return "stopped" }
        }
        if let status {
            if since == nil, let last, last > 0 { since = max(0, last - Self.recentOnFreshLoad) }
            guard emit(.state(name: "status", data: StatusForPage.line(status))) else { return "stopped" }
        }
        do { try c.send(.watch(WatchRequest(since: since))) } catch { return error.description }
        let interval = Duration.milliseconds(Int(statusInterval * 1000))
        var nextStatus = ContinuousClock.now
        while !isStopped {
            let now = ContinuousClock.now
            if now >= nextStatus {
                do { try c.send(.status) } catch { return error.description }
                nextStatus = now + interval
            }
            let line: String?
            do {
                line = try c.readLine(timeout: max(0.01, min(0.1, Self.seconds(nextStatus - now))))
            } catch {
                if case .timeout = error { continue }
                return error.description
            }
            guard let line else { return "the daemon closed the connection" }
            if WireCoding.className(of: line) == ErrorReply.wireClass,
               let e = try? WireCoding.decode(ErrorReply.self, from: line), e.command == "watch" {
                // Refused (`busy`: eight clients replaying already) or cut off (a replay that
                // lagged): reconnect and resume from the last number passed on.
                return "the daemon ended the watch: \(e.message)"
            }
            guard take(line) else { return "stopped" }
        }
        return "stopped"
    }

    /// The friends' events (a find, a like given or received, a follow) the page hears of, to
    /// read its Friends lists again the moment they change.
    static let friendsClasses: Set<String> = [FeedEvent.wireClass, LikeEvent.wireClass, LikeReceivedEvent.wireClass,
                                              FollowingChangedEvent.wireClass]

    /// Passes one daemon line on; false when the browser is gone or too slow.
    private func take(_ line: String) -> Bool {
        switch WireCoding.className(of: line) {
        case let cls? where EventMessage.classes.contains(cls):
            // Decoded and re-encoded: the browser gets only well-formed, known fields.
            guard let m = try? EventMessage.decode(line: line), let n = m.seq, let seq = UInt64(exactly: n) else { return true }
            return isFresh(seq) ? emit(.event(seq: seq, name: cls, data: m.line)) : true
        case let cls? where Self.friendsClasses.contains(cls):
            // Only that something changed, and what kind: the page reads the lists itself
            // (`/api/read`, under its own access), so no friend's data rides this stream.
            guard let h = PublishedLineHeader(utf8: line.utf8), let seq = UInt64(exactly: h.seq), seq > 0 else { return true }
            return isFresh(seq) ? emit(.event(seq: seq, name: "friends", data: #"{"class":"\#(cls)"}"#)) : true
        case "STATUS":
            guard let s = try? WireCoding.decode(StatusReply.self, from: line) else { return true }
            return emit(.state(name: "status", data: StatusForPage.line(s)))
        case "WATCH":
            guard let w = try? WireCoding.decode(WatchReply.self, from: line), let gap = w.sinceGap else { return true }
            return emit(.state(name: "gap", data: #"{"since_gap":\#(gap)}"#))
        default:
            return true    // VERSION, ERROR for a status while busy, classes added later
        }
    }

    /// Whether event `seq` is past the last one passed on (a replay overlaps), noting it if so.
    private func isFresh(_ seq: UInt64) -> Bool {
        lastSeq.withLock { last -> Bool in
            if let last, seq <= last { return false }
            last = seq
            return true
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// The `gap` frame for a resume from a number past the daemon's last: what the browser asked
/// for (as text: it may exceed what JSON numbers hold exactly), the daemon's last number, and
/// that the stream starts afresh.
struct BeyondEnd: Codable {
    var asked: String
    var last: Int?
    var beyondEnd = true
    enum CodingKeys: String, CodingKey { case asked, last, beyondEnd = "beyond_end" }

    var json: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return (try? String(decoding: e.encode(self), as: UTF8.self)) ?? #"{"beyond_end":true}"#
    }
}

/// The `link` frame: whether hotcold-web reaches the daemon.
struct LinkState: Codable {
    var up: Bool
    var reason: String?

    var json: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: e.encode(self), as: UTF8.self)) ?? #"{"up":false}"#
    }
}
