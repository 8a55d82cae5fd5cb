import Foundation
import Glibc
import HotColdCore
import HotColdProtocol

extension EventPublisher {
    /// `watch` with `since`: replays the logged events numbered above `since` that the
    /// subscription accepts, then goes live, with no gap and no duplicate at the switch.
    ///
    /// The live side is registered first, under the publishing lock: from that moment the
    /// client's live events are buffered here (its socket subscription accepts nothing), and
    /// every event numbered below that moment is in the log's file or still in its writer's
    /// queue, whose lines are taken at the same moment and sent after the file's. A thread of its own then
    /// reads the log (never the socket loop or the engine), sends the `WATCH` reply (with
    /// `since_gap`, the first number it is complete from, when the log no longer reaches back
    /// to `since`), the
    /// replayed lines paced to the client's reading, then the buffered ones, and — under the
    /// lock again, so no event slips between — hands the subscription to the socket.
    ///
    /// Returns nil when the replay has started (the reply comes from it), or an `ERROR` line.
    func watch(client: ClientID, subscription: Subscription, since: Int, reply: WatchReply) -> String? {
        guard let socket else { return Self.error(.internal, "no socket") }
        let started = state.withLock { s -> (end: Int, logPath: String?, pending: [EventLogReader.Line])? in
            if s.catchUps[client] == nil, s.catchUps.count >= limits.maxConcurrent { return nil }
            s.catchUps[client] = CatchUp(subscription: subscription)
            // Stays "watching" (so a client that shut its write side is not closed) but accepts nothing.
            socket.setWatch(client: client, Subscription(watching: true, classes: [], targets: nil))
            let end = sequence.peekNext
            return (end, log?.path, log?.pending(before: end) ?? [])
        }
        guard let started else {
            return Self.error(.busy, "\(limits.maxConcurrent) clients are replaying from the log already; try again in a moment")
        }
        let thread = Thread { [self] in
            replay(client: client, subscription: subscription, since: since, end: started.end,
                   logPath: started.logPath, pending: started.pending, reply: reply, socket: socket)
        }
        thread.name = "hotcold.watch-since"
        thread.start()
        return nil
    }

    /// Forgets a replay in progress (a new `watch` from the same client, or it left).
    func cancelCatchUp(client: ClientID) {
        _ = state.withLock { $0.catchUps.removeValue(forKey: client) }
    }

    /// Clients replaying from the log now.
    var catchingUp: Int { state.withLock { $0.catchUps.count } }

    private func replay(client: ClientID, subscription: Subscription, since: Int, end: Int,
                        logPath: String?, pending: [EventLogReader.Line], reply: WatchReply, socket: SocketServer) {
        let accepts = { (className: String, bytes: ArraySlice<UInt8>) -> Bool in
            Self.replays(className: className, bytes: bytes, to: subscription)
        }
        var result: EventLogReader.Result
        if let logPath {
            result = limits.reader.read(path: logPath, after: since, before: end) { header, bytes in
                accepts(header.className, bytes)
            }
        } else {
            let complete = since + 1 >= end
            result = .init(lines: [], isComplete: complete, firstSeq: complete ? since + 1 : end)
        }
        // What the writer had not written when the replay began follows the file's lines (some
        // may have reached the file since: numbers already sent are skipped when pacing).
        let waiting = pending.filter { line in
            guard line.seq > since, let h = EventLogReader.header(Array(line.text.utf8)[...]) else { return false }
            return accepts(h.className, Array(line.text.utf8)[...])
        }
        if result.lines.isEmpty, !result.isComplete, let first = pending.first(where: { $0.seq > since }) {
            // The file had nothing of the range; the queue may start right where it should.
            let from = (try? GapEvent.decode(line: first.text))?.firstSeq ?? first.seq
            if from <= since + 1 { result.isComplete = true }
        }
        result.lines += waiting
        var o = reply
        o.since = since
        if !result.isComplete { o.sinceGap = result.firstSeq }
        // A GAP marker in the range (a power cut, a disk that did not keep up): the replay is
        // whole only after it, whatever the file holds before.
        let gaps = waiting.compactMap { (try? GapEvent.decode(line: $0.text))?.seq } + [result.gapThrough].compactMap { $0 }
        if let gap = gaps.max() { o.sinceGap = max(o.sinceGap ?? 0, gap + 1) }
        o.replay = result.lines.count
        if !result.isComplete {
            logger.notice("watch since \(since) from \(client): the log starts at \(result.firstSeq); events in between are gone")
        }
        // Numbers from `end` on are live; a `since` beyond them (a number from before the sequence
        // file was lost) must not hide them.
        var lastSent = min(since, end - 1)
        guard send([WireCoding.line(o)], client, socket),
              pace(result.lines, after: &lastSent, client, socket, filteredFor: subscription) else {
            return cleanUp(client)
        }
        // Drain what arrived meanwhile in batches, then switch over under the lock.
        while true {
            guard waitForRoom(client, socket) else { return cleanUp(client) }
            let step = state.withLock { s -> Step in
                guard var c = s.catchUps[client] else { return .cancelled }
                if c.overflowed {
                    s.catchUps[client] = nil
                    return .overflowed
                }
                if c.bytes <= min(limits.maxBufferedBytes / 16, socket.queueLimitBytes / 4) {
                    let lines = c.buffer.filter { $0.seq > lastSent }.map(\.text)
                    s.catchUps[client] = nil
                    if !lines.isEmpty { socket.send(to: client, lines: lines) }
                    // The subscription as it is now: an `act_for` meanwhile narrowed it.
                    socket.setWatch(client: client, c.subscription)
                    return .live
                }
                let taken = c.buffer
                c.buffer = []
                c.bytes = 0
                s.catchUps[client] = c
                return .batch(taken)
            }
            switch step {
            case .live, .cancelled:
                // A newer watch from the same client owns its subscription now.
                return
            case .overflowed:
                socket.disconnect(client, reason: overflowReason)
                return
            case .batch(let lines):
                guard pace(lines, after: &lastSent, client, socket, filteredFor: subscription) else { return cleanUp(client) }
            }
        }
    }

    private enum Step {
        case batch([EventLogReader.Line]), live, cancelled, overflowed
    }

    /// Sends lines in batches of a quarter of the client's queue, waiting for it to read.
    /// `filteredFor`: the subscription the lines were chosen for. When the client's has been
    /// narrowed since (`act_for`), each batch is chosen again as it is queued, under the
    /// publishing lock that ``narrowReader(client:to:)`` takes: a batch is queued either
    /// before the narrowing (and so before `act_for`'s reply) or chosen for the new reader.
    private func pace(_ lines: [EventLogReader.Line], after lastSent: inout Int, _ client: ClientID,
                      _ socket: SocketServer, filteredFor chosen: Subscription) -> Bool {
        let batchBytes = max(4096, socket.queueLimitBytes / 4)
        var i = 0
        while i < lines.count {
            var batch: [EventLogReader.Line] = []
            var bytes = 0
            while i < lines.count, bytes < batchBytes {
                if lines[i].seq > lastSent {
                    batch.append(lines[i])
                    bytes += lines[i].text.utf8.count + 1
                    lastSent = lines[i].seq
                }
                i += 1
            }
            guard !batch.isEmpty else { continue }
            guard waitForRoom(client, socket) else { return false }
            let queued = state.withLock { s -> Bool in
                guard let now = s.catchUps[client]?.subscription else { return false }
                let narrowed = now.reader != chosen.reader
                let text = batch.filter { !narrowed || !Self.isPersonal($0, hiddenFrom: now) }.map(\.text)
                return text.isEmpty || socket.send(to: client, lines: text)
            }
            guard queued else { return false }
        }
        return true
    }

    /// Waits until the client's queue has room for a batch, then queues it. False when the
    /// client is gone, the replay was cancelled, or the client stopped reading.
    private func send(_ lines: [String], _ client: ClientID, _ socket: SocketServer) -> Bool {
        guard !lines.isEmpty else { return true }
        guard waitForRoom(client, socket) else { return false }
        return socket.send(to: client, lines: lines)
    }

    /// Waits (polling, on the replay's own thread) until a quarter of the client's queue is
    /// free. False when the client is gone, the replay was cancelled, or the client has not
    /// read for `stallTimeout` (then it is disconnected).
    private func waitForRoom(_ client: ClientID, _ socket: SocketServer) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limits.stallTimeout
        let roomNeeded = max(4096, socket.queueLimitBytes / 4)
        while true {
            let overflowed = state.withLock { s -> Bool? in
                guard let c = s.catchUps[client] else { return nil }
                if c.overflowed { s.catchUps[client] = nil }
                return c.overflowed
            }
            guard let overflowed else { return false }
            if overflowed {
                socket.disconnect(client, reason: overflowReason)
                return false
            }
            guard let queued = socket.queuedBytes(of: client) else { return false }
            if queued == 0 || queued + roomNeeded <= socket.queueLimitBytes { return true }
            if clock.now > deadline {
                socket.disconnect(client, reason: "watch: the replay stalled: client not reading for \(limits.stallTimeout)")
                return false
            }
            usleep(2_000)
        }
    }

    private var overflowReason: String {
        "watch: more than \(limits.maxBufferedLines) events or \(limits.maxBufferedBytes) bytes arrived during the replay; reconnect with since set to the last seq received"
    }

    private func cleanUp(_ client: ClientID) {
        cancelCatchUp(client: client)
    }

    /// `act_for` on a connection that already watches (or is replaying): from now on it gets
    /// only what `reader` may see — the live subscription, the replay's subscription and the
    /// events held for the replay are narrowed together, under the publishing lock, so no
    /// event published after this returns reaches it as the proxy's.
    func narrowReader(client: ClientID, to reader: String?) {
        state.withLock { s in
            if var c = s.catchUps[client] {
                c.subscription.reader = reader
                let subscription = c.subscription
                c.buffer.removeAll { Self.isPersonal($0, hiddenFrom: subscription) }
                c.bytes = c.buffer.reduce(0) { $0 + $1.text.utf8.count }
                s.catchUps[client] = c
            }
            if var live = socket?.subscription(of: client), live.reader != reader {
                live.reader = reader
                socket?.setWatch(client: client, live)
            }
        }
    }

    /// Whether a line (from the log, or held for a replay) is another user's personal record
    /// that a client with `subscription` may not see. Only the reader changes after a line was
    /// chosen, so only personal records need choosing again.
    static func isPersonal(_ line: EventLogReader.Line, hiddenFrom subscription: Subscription) -> Bool {
        let bytes = Array(line.text.utf8)[...]
        guard let header = EventLogReader.header(bytes), header.className == RecordEvent.wireClass else { return false }
        return !replays(className: header.className, bytes: bytes, to: subscription)
    }

    static func replays(className: String, bytes: ArraySlice<UInt8>, to subscription: Subscription) -> Bool {
        // A GAP marker goes to every replay that crosses its hole, whatever classes it asked for.
        if className == GapEvent.wireClass { return true }
        // A RECORD in the log is a user's own: replayed to that user (or the administrator) only.
        if className == RecordEvent.wireClass {
            guard let line = String(validating: bytes, as: UTF8.self),
                  let record = try? WireCoding.decode(RecordEvent.self, from: line) else { return false }
            return subscription.accepts(.personal(className: className, user: record.user))
        }
        let target = subscription.targets != nil && className != "GPS" ? Self.targetID(bytes) : nil
        return subscription.accepts(.watchers(className: className, targetID: target))
    }

    /// The target id of a published line, when it has one.
    static func targetID(_ bytes: ArraySlice<UInt8>) -> String? {
        struct Probe: Decodable {
            struct Ref: Decodable { var id: String }
            var target: Ref?
        }
        return (try? JSONDecoder().decode(Probe.self, from: Data(bytes)))?.target?.id
    }

    static func error(_ code: ErrorCode, _ message: String) -> String {
        WireCoding.line(ErrorReply(ProtocolError(code, command: "watch", message)))
    }
}
