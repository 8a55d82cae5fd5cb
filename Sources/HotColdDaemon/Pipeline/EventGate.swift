import Foundation
import HotColdCore
import Logging
import Synchronization

/// Keeps "the visit is durable before its ARRIVED leaves" without putting the database on the
/// engine's path.
///
/// An ARRIVED or DEPARTED at a stored place becomes a job for the ``VisitRecorder`` and waits
/// here until that job is stored; the target's later ARRIVED/DEPARTED wait behind it, so each
/// target's passages stay in order. Everything else (PROXIMITY, GPS, other targets' passages)
/// leaves at once. ``submit(_:)`` only takes a short lock and queues: it never waits for the
/// database. Point targets (given by hand) and friends have no stored visit and are never held.
///
/// ```swift
/// let gate = EventGate(sink: publisher, places: places, user: "hotcold", logger: logger)
/// gate.submit(engine.process(fix))   // under the engine lock: returns at once
/// ```
final class EventGate: Sendable {
    private struct Held {
        var job: Int?
        var event: Event
    }

    private struct State {
        var held: [String: [Held]] = [:]
        var count = 0
    }

    /// Lets the recorder's completion reach the gate without a reference cycle.
    private final class Link: Sendable {
        struct Weak { weak var gate: EventGate? }
        let ref = Mutex(Weak())
    }

    private let state = Mutex(State())
    private let sink: any EventSink
    let recorder: VisitRecorder?

    init(sink: any EventSink, places: (any PlaceRecords)?, user: String,
                limits: VisitRecorder.Limits = .init(), logger: Logger) {
        let link = Link()
        self.sink = sink
        self.recorder = places.map { r in
            VisitRecorder(places: r, user: user, limits: limits, logger: logger) { job, _ in
                link.ref.withLock { $0.gate }?.completed(job)
            }
        }
        link.ref.withLock { $0.gate = self }
    }

    /// Whether passages at this target wait for a stored visit.
    func recordsVisits(for target: TargetRef) -> Bool {
        recorder != nil && target.kind != .point && target.kind != .friend
    }

    /// Publishes the events, holding passages at stored places until their visits are stored.
    func submit(_ events: [Event]) {
        state.withLock { s in
            for e in events {
                let passage: (Event.Passage, VisitRecorder.Change)
                switch e {
                case .arrived(let p): passage = (p, .arrival(episode: Self.episode(p)))
                case .departed(let p): passage = (p, .departure)
                default:
                    sink.publish(.engine(e))
                    continue
                }
                let (p, change) = passage
                let id = p.target.id
                // Only stored places have visits: a point given by hand or a friend met on the
                // road leaves at once, as fast as a PROXIMITY (the one rule, `recordsVisits`).
                if let recorder, recordsVisits(for: p.target),
                   let job = recorder.enqueue(change, placeID: id, time: p.time) {
                    s.held[id, default: []].append(Held(job: job.id, event: e))
                    s.count += 1
                } else if s.held[id] != nil {
                    // No job of its own (queue full), but still behind this target's earlier one.
                    s.held[id]!.append(Held(job: nil, event: e))
                    s.count += 1
                } else {
                    sink.publish(.engine(e))
                }
            }
        }
    }

    /// Events waiting for their visits (or behind one).
    var heldCount: Int { state.withLock { $0.count } }

    /// A job is done (stored or given up): its event and those behind it that wait for nothing else leave.
    private func completed(_ job: VisitRecorder.Job) {
        state.withLock { s in
            guard var queue = s.held[job.placeID], let k = queue.firstIndex(where: { $0.job == job.id }) else { return }
            queue[k].job = nil
            var released = 0
            while released < queue.count, queue[released].job == nil {
                sink.publish(.engine(queue[released].event))
                released += 1
            }
            queue.removeFirst(released)
            s.count -= released
            s.held[job.placeID] = queue.isEmpty ? nil : queue
        }
    }

    /// The arrival's key in the store: a replayed or retried arrival stores nothing new.
    static func episode(_ p: Event.Passage) -> String {
        "\(p.target.id)@\(ISO8601.format(p.time))"
    }
}
