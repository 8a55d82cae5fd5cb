import Foundation
import Logging
import Synchronization

/// Stores arrivals and departures at stored places on a thread of its own, in the order
/// given, retrying each with backoff until it is stored: a busy (locked) or full database
/// neither stalls the engine nor loses a visit.
///
/// The engine side only appends a job to a bounded queue (``enqueue(_:placeID:time:)``) and
/// never waits; `done` is called on the recorder's thread once a job is stored (or given up:
/// the place no longer exists, or an error that is not transient persisted), which is when
/// ``EventGate`` lets the event behind it leave. A failure is reported once in the journal
/// when it starts and once when it ends, not once per retry; `status` counts the retries.
///
/// ```swift
/// let recorder = VisitRecorder(places: r, user: "hotcold", logger: logger) { job, outcome in … }
/// recorder.enqueue(.arrival(episode: "GC2T9RW@2025-01-01T00:00:00.000Z"), placeID: "GC2T9RW", time: t)
/// ```
final class VisitRecorder: Sendable {
    enum Change: Sendable, Equatable {
        case arrival(episode: String)
        case departure
    }

    struct Job: Sendable, Equatable {
        public let id: Int
        let change: Change
        let placeID: String
        let time: Date
    }

    enum Outcome: Sendable, Equatable {
        case stored
        case failed(String)
    }

    struct Limits: Sendable {
        /// Jobs waiting at most; beyond this an event is published without its visit (counted
        /// as dropped). Arrivals are rare: a thousand is hours of a dead database.
        var capacity = 1024
        var firstRetry: Duration = .milliseconds(250)
        var maxRetry: Duration = .seconds(8)
        /// Attempts before a job failing with an error that is not transient is given up.
        var maxAttemptsForOtherErrors = 5
        init() {}
    }

    /// What `status` shows.
    struct Status: Sendable, Equatable {
        /// Jobs not stored yet (including one being retried).
        var pending = 0
        /// Failed attempts that were retried, since start.
        var retries = 0
        var stored = 0
        /// Given up (the place is gone, or a lasting error that is not transient).
        var failed = 0
        /// Refused because the queue was full.
        var dropped = 0
        /// The current failure while retrying.
        var error: String?
        var failingSince: Date?
    }

    private struct State {
        var queue: [Job] = []
        var head = 0
        var nextID = 1
        var stopping = false
        var status = Status()
        var attempts = 0
        var notBefore: ContinuousClock.Instant?
        var backoff: Duration = .zero
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let places: any PlaceRecords
    private let user: String
    private let limits: Limits
    private let logger: Logger
    private let done: @Sendable (Job, Outcome) -> Void
    private let clock = ContinuousClock()

    init(places: any PlaceRecords, user: String, limits: Limits = Limits(), logger: Logger,
                done: @escaping @Sendable (Job, Outcome) -> Void) {
        self.places = places
        self.user = user
        self.limits = limits
        self.logger = logger
        self.done = done
    }

    /// Queues a change; returns its job, or nil when the queue is full (counted, reported).
    /// Never blocks on the database.
    func enqueue(_ change: Change, placeID: String, time: Date) -> Job? {
        let job = state.withLock { s -> Job? in
            guard !s.stopping, s.queue.count - s.head < limits.capacity else {
                s.status.dropped += 1
                return nil
            }
            let job = Job(id: s.nextID, change: change, placeID: placeID, time: time)
            s.nextID += 1
            s.queue.append(job)
            return job
        }
        if job == nil {
            logger.error("visits: \(limits.capacity) changes are waiting for the database already; the \(Self.describe(change)) at \(placeID) is not stored")
        }
        wake.signal()
        return job
    }

    var status: Status {
        state.withLock { s in
            var st = s.status
            st.pending = s.queue.count - s.head
            return st
        }
    }

    /// Waits up to `grace` for the queue to empty, then stops the thread. The jobs left are
    /// not stored (their events never left either).
    func stop(grace: Duration = .seconds(2)) {
        let deadline = clock.now + grace
        while clock.now < deadline, state.withLock({ $0.queue.count > $0.head }) {
            usleep(10_000)
        }
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    // MARK: - The thread

    /// The recorder's loop, on a thread of its own (``VisitRecorderService`` starts it in its
    /// `run()`): returns after ``stop(grace:)``.
    public func run() {
        while true {
            let next = state.withLock { s -> (Job?, ContinuousClock.Instant?, Bool) in
                (s.head < s.queue.count ? s.queue[s.head] : nil, s.notBefore, s.stopping)
            }
            if next.2 { return }
            guard let job = next.0 else {
                wake.wait()
                continue
            }
            if let notBefore = next.1, clock.now < notBefore {
                let left = notBefore - clock.now
                let ns = Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)
                _ = wake.wait(timeout: .now() + .nanoseconds(max(1, ns)))
                continue
            }
            attempt(job)
        }
    }

    private func attempt(_ job: Job) {
        let failure: (message: String, transient: Bool)?
        do {
            switch job.change {
            case .arrival(let episode):
                try places.recordArrival(targetID: job.placeID, user: user,
                                           at: job.time.timeIntervalSince1970, episode: episode)
            case .departure:
                try places.recordDeparture(targetID: job.placeID, user: user, at: job.time.timeIntervalSince1970)
            }
            failure = nil
        } catch {
            failure = ("\(error)", places.isTransient(error))
        }

        guard let failure else {
            let recovered = state.withLock { s -> (Int, Int)? in
                s.head += 1
                compact(&s)
                s.status.stored += 1
                let tries = s.attempts
                s.attempts = 0
                s.notBefore = nil
                s.backoff = .zero
                guard s.status.error != nil else { return nil }
                s.status.error = nil
                s.status.failingSince = nil
                return (tries + 1, s.queue.count - s.head)
            }
            if let (tries, waiting) = recovered {
                logger.notice("visits: the database takes writes again: stored the \(Self.describe(job.change)) at \(job.placeID) after \(tries) attempts (\(waiting) more waiting)")
            }
            done(job, .stored)
            return
        }

        // Outcome, and the message to report once when a failure begins (logged outside the lock).
        let (giveUp, firstReport) = state.withLock { s -> (Bool, String?) in
            s.attempts += 1
            if !failure.transient, s.attempts >= limits.maxAttemptsForOtherErrors {
                s.head += 1
                compact(&s)
                s.status.failed += 1
                s.attempts = 0
                s.notBefore = nil
                s.backoff = .zero
                return (true, nil)
            }
            s.status.retries += 1
            s.backoff = s.backoff == .zero ? limits.firstRetry : min(s.backoff * 2, limits.maxRetry)
            s.notBefore = clock.now + s.backoff
            let first = s.status.error == nil
            let message = "cannot store the \(Self.describe(job.change)) at \(job.placeID): \(failure.message)"
            s.status.error = message
            guard first else { return (false, nil) }
            s.status.failingSince = Date()
            return (false, message)
        }
        if let firstReport {
            logger.error("visits: \(firstReport); retrying with backoff (up to \(limits.maxRetry)); the event waits until it is stored, tracking goes on")
        }
        if giveUp {
            logger.error("visits: giving up the \(Self.describe(job.change)) at \(job.placeID) after \(limits.maxAttemptsForOtherErrors) attempts: \(failure.message); its event is sent without it")
            done(job, .failed(failure.message))
        }
    }

    private func compact(_ s: inout State) {
        if s.head == s.queue.count {
            s.queue.removeAll(keepingCapacity: true)
            s.head = 0
        } else if s.head >= 64, s.head * 2 >= s.queue.count {
            s.queue.removeFirst(s.head)
            s.head = 0
        }
    }

    static func describe(_ change: Change) -> String {
        switch change {
        case .arrival: "arrival"
        case .departure: "departure"
        }
    }
}
