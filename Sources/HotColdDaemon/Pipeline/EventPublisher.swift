import Foundation
import HotColdCore
import Logging
import Synchronization

/// The output stage's work for one event: numbers it, writes its line once, queues it for the
/// socket's watchers and hands it to the log's writer, in one order under one lock, so a
/// number, a log position and a socket position always agree. Nothing here waits: the socket
/// and the log's writer only queue. In the daemon only the ``OutputStage``'s thread calls
/// ``publish(_:)``; the engine never does. Clients catching up after `watch` with `since` get the live events
/// buffered here until their replay from the log is done (see ``watch(client:subscription:since:reply:)``).
///
/// ```swift
/// let publisher = EventPublisher(socket: server, log: LogWriter(log: log, logger: logger), sequence: seq, logger: logger)
/// publisher.publish(.engine(event))   // {"class":"PROXIMITY","seq":42,…} to the log and the socket
/// ```
final class EventPublisher: EventSink {
    struct State {
        var catchUps: [ClientID: CatchUp] = [:]
    }

    /// A client replaying from the log: live events it wants wait here meanwhile.
    struct CatchUp {
        var subscription: Subscription
        var buffer: [EventLogReader.Line] = []
        var bytes = 0
        var overflowed = false
    }

    let state: Mutex<State>
    public let socket: SocketServer?
    /// The event log's writer (nil: no log).
    public let log: LogWriter?
    let sequence: EventSequence
    let logger: Logger
    let limits: CatchUpLimits
    /// Told of each event with its number, under the publisher's lock (it must only queue):
    /// the own-feed recorder keeps this car's arrivals and records as feed items by their seq.
    private let observer = Mutex<(@Sendable (PublishedEvent, Int) -> Void)?>(nil)

    init(socket: SocketServer?, log: LogWriter?, sequence: EventSequence,
                limits: CatchUpLimits = CatchUpLimits(), logger: Logger) {
        self.socket = socket
        self.log = log
        self.state = Mutex(State())
        self.sequence = sequence
        self.limits = limits
        self.logger = logger
    }

    /// Sets the one observer of numbered events (see `observer`).
    func observe(_ body: @escaping @Sendable (PublishedEvent, Int) -> Void) {
        observer.withLock { $0 = body }
    }

    func publish(_ event: PublishedEvent) {
        if event.isLiveOnly {
            // No number, no log line, nothing for a replay to catch up on.
            _ = socket?.broadcast(line: event.line(seq: 0), filter: event.filter)
            return
        }
        let observe = observer.withLock { $0 }
        state.withLock { s in
            let seq = sequence.next()
            let line = event.line(seq: seq)
            let filter = event.filter
            log?.enqueue(seq: seq, line: line, urgent: event.isUrgentForLog)
            _ = socket?.broadcast(line: line, filter: filter)
            observe?(event, seq)
            guard !s.catchUps.isEmpty else { return }
            for id in Array(s.catchUps.keys) {
                guard var c = s.catchUps[id], !c.overflowed, c.subscription.accepts(filter) else { continue }
                if c.buffer.count >= limits.maxBufferedLines || c.bytes + line.utf8.count > limits.maxBufferedBytes {
                    c.overflowed = true
                    c.buffer = []
                    c.bytes = 0
                } else {
                    c.buffer.append(.init(seq: seq, text: line))
                    c.bytes += line.utf8.count
                }
                s.catchUps[id] = c
            }
        }
    }
}

/// Bounds on `watch` with `since`.
struct CatchUpLimits: Sendable {
    /// Clients replaying at once; more are asked to try again.
    var maxConcurrent = 8
    /// Live events held for one client while its replay runs; beyond this it is disconnected
    /// (and reconnects with its last number).
    var maxBufferedLines = 20_000
    var maxBufferedBytes = 4 << 20
    /// How long a replay waits for a client that does not read before dropping it.
    var stallTimeout: Duration = .seconds(30)
    /// What is read from the log for one replay.
    var reader = EventLogReader()

    init() {}
}
