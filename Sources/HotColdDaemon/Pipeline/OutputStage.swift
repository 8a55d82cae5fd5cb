import Foundation
import Logging
import Synchronization

/// Where the engine's events go first: a bounded queue that the engine's thread fills without
/// waiting, and a thread of the stage's own (``OutputStageService``) that numbers them, writes
/// their lines and fans them out (``EventPublisher``: the socket's subscribers, the replays in
/// progress, the log's writer). So the engine lock covers the engine and a queue append: no
/// JSON, no `write(2)`, no `fsync`, no client under it.
///
/// The order of ``publish(_:)`` calls is the order of the numbers. The queue holds
/// `maxQueued` events; the stage only does work in memory, so it never fills unless the
/// machine is starved, and then the newest are dropped and counted (`dropped`).
///
/// The watchdog asks ``certifyProgress()`` once a beat: an idle stage, or one that handed on
/// events since the last beat, is alive; one that sits on events it does not move is not.
///
/// ```swift
/// let stage = OutputStage(publisher: publisher, logger: logger)
/// Thread { stage.run() }.start()   // OutputStageService does this in its run()
/// stage.publish(.engine(event))   // under the engine lock: a queue append
/// ```
final class OutputStage: EventSink {
    private struct State {
        var queue: [PublishedEvent] = []
        var stopping = false
        var dropped = 0
        var certified = 0
    }

    private let state = Mutex(State())
    private let handed = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    let publisher: EventPublisher
    private let maxQueued: Int
    private let logger: Logger

    init(publisher: EventPublisher, maxQueued: Int = 65_536, logger: Logger) {
        self.publisher = publisher
        self.maxQueued = max(1, maxQueued)
        self.logger = logger
    }

    func publish(_ event: PublishedEvent) {
        let signal = state.withLock { s -> Bool in
            guard s.queue.count < maxQueued else {
                s.dropped += 1
                if s.dropped == 1 { logger.critical("output stage: \(maxQueued) events waiting; newer ones are dropped (counted in status)") }
                return false
            }
            s.queue.append(event)
            return s.queue.count == 1
        }
        if signal { wake.signal() }
    }

    /// The stage's loop, on its own thread: returns after ``finish()`` once the queue is empty.
    public func run() {
        while true {
            let (batch, stopping) = state.withLock { s -> ([PublishedEvent], Bool) in
                let b = s.queue
                s.queue = []
                return (b, s.stopping)
            }
            if batch.isEmpty {
                if stopping { return }
                _ = wake.wait(timeout: .now() + .seconds(1))
                continue
            }
            for e in batch {
                publisher.publish(e)
                handed.add(1, ordering: .relaxed)
            }
        }
    }

    /// Asks ``run()`` to hand on what is queued and return.
    func finish() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    /// True when the stage is idle or moved events since the previous call.
    func certifyProgress() -> Bool {
        let now = handed.load(ordering: .relaxed)
        return state.withLock { s in
            defer { s.certified = now }
            return s.queue.isEmpty || now != s.certified
        }
    }

    /// Events waiting, and events dropped because the queue was full.
    var counts: (queued: Int, dropped: Int) {
        state.withLock { ($0.queue.count, $0.dropped) }
    }
}
