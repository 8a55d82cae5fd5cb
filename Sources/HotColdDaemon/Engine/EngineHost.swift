import Foundation
import GPSInput
import HotColdCore
import HotColdProtocol
import Logging
import Synchronization

/// Owns the proximity engine inside the daemon and serialises everything that touches it:
/// fixes from gpsd, the heartbeat, and socket commands (hunt, roam, poll, status).
///
/// The engine itself stays pure; this is where clocks, the store and the outputs meet it.
/// Each fix's events are recorded (visits) and published (log, socket) under the same lock,
/// so they leave in engine order, and an ARRIVED is in the store before anyone hears of it.
public final class EngineHost: Sendable {
    public enum Link: String, Sendable { case connecting, connected, lost }

    struct State {
        var engine: ProximityEngine
        var trackingDescription: TrackingDescription
        var link: Link = .connecting
        var linkReason: String?
        var lastFix: Fix?
        var lastFixMonotonic: UInt64?
        var fixes = 0
        var untimed = 0
        var events = 0
        var visitErrors = 0
        var latency = LatencyRecorder()
        var arrivalUser: String
    }

    /// How the current target set came about, for `status`.
    public struct TrackingDescription: Sendable, Equatable {
        public var mode: String
        public var radius: Double?
        public var filter: String?
    }

    private let state: Mutex<State>
    private let sink: any EventSink
    private let resolver: (any TargetResolver)?
    private let logger: Logger
    public let startedAt = Date()
    private let startedMonotonic = GPSDSource.monotonicNanoseconds()

    public init(engine: ProximityEngine, tracking: TrackingDescription, sink: any EventSink,
                resolver: (any TargetResolver)?, arrivalUser: String, logger: Logger) {
        self.state = Mutex(State(engine: engine, trackingDescription: tracking, arrivalUser: arrivalUser))
        self.sink = sink
        self.resolver = resolver
        self.logger = logger
    }

    // MARK: - Input

    /// One input from the gpsd source (its thread).
    public func handle(_ input: GPSDInput) {
        state.withLock { state in
            switch input {
            case .connected:
                if state.link != .connected { logger.info("gpsd connected") }
                state.link = .connected
                state.linkReason = nil
            case .lost(let reason):
                let was = state.link
                state.link = .lost
                state.linkReason = reason
                if was != .lost {
                    logger.warning("gpsd lost: \(reason); retrying")
                    var o = JSONLine(class: "GPS")
                    o.add("time", time: Self.fixTimeNow(state))
                    o.add("state", GPSState.lost.rawValue)
                    o.add("reason", reason)
                    sink.publish(line: o.text, filter: .watchers(className: "GPS", targetID: nil))
                    state.events += 1
                }
            case .fix(let fix, let receivedAt):
                state.fixes += 1
                process(fix, &state)
                state.lastFixMonotonic = GPSDSource.monotonicNanoseconds()
                state.latency.record(nanoseconds: GPSDSource.monotonicNanoseconds() &- receivedAt)
            case .untimed(let mode, _):
                state.untimed += 1
                // gpsd sends mode-1 reports without a time: place them on the fix timeline now.
                if mode < .twoD {
                    process(Fix(time: Self.fixTimeNow(state), coordinate: nil, mode: mode), &state)
                }
            }
        }
    }

    /// Called every second: staleness when fixes stop arriving. Returns normally only if the
    /// engine lock could be taken, which is what the watchdog ping certifies.
    public func tick() {
        state.withLock { state in
            let events = state.engine.advance(to: Self.fixTimeNow(state))
            publish(events, &state)
        }
    }

    private func process(_ fix: Fix, _ state: inout State) {
        let before = state.engine.lastFix?.time
        let events = state.engine.process(fix)
        if state.engine.lastFix?.time != before, let f = state.engine.lastFix { state.lastFix = f }
        publish(events, &state)
    }

    private func publish(_ events: [Event], _ state: inout State) {
        for e in events {
            if case .arrived(let p) = e, let resolver, p.target.kind != .point {
                // The visit is stored before the event leaves: a crash in between replays the
                // arrival next time, and the episode key keeps it from counting twice.
                let episode = "\(p.target.id)@\(ISO8601.format(p.time))"
                do {
                    try resolver.recordArrival(targetID: p.target.id, user: state.arrivalUser,
                                               at: p.time.timeIntervalSince1970, episode: episode)
                } catch {
                    state.visitErrors += 1
                    logger.error("cannot record the visit to \(p.target.id): \(error)")
                }
            }
            sink.publish(line: e.jsonLine, filter: BroadcastFilter(e))
            state.events += 1
        }
    }

    /// "Now" on the fixes' own timeline: the last fix time plus the monotonic time since it
    /// arrived (receivers may be 1024 weeks out; the wall clock would disagree with them).
    private static func fixTimeNow(_ state: State) -> Date {
        let now = GPSDSource.monotonicNanoseconds()
        if let f = state.lastFix, let m = state.lastFixMonotonic {
            return f.time.addingTimeInterval(Double(now &- m) / 1e9)
        }
        return Date()
    }

    // MARK: - Commands

    public func retarget(_ targets: [Target], mode: TrackingMode, description: TrackingDescription) {
        state.withLock { state in
            state.engine.retarget(targets, mode: mode)
            state.trackingDescription = description
            // Start measuring at once from the last position, if any.
            if let f = state.lastFix {
                var again = f
                again.time = f.time.addingTimeInterval(0.001)
                publish(state.engine.process(again), &state)
            }
        }
    }

    /// Replaces the engine with one using `config` (a reload), keeping targets and mode.
    public func reconfigure(_ config: EngineConfig) {
        state.withLock { state in
            guard config != state.engine.config else { return }
            state.engine = ProximityEngine(targets: state.engine.targets, mode: state.engine.mode, config: config)
        }
    }

    /// A one-line summary for systemd's STATUS=.
    public func summary() -> String {
        state.withLock { state in
            let gps = state.link == .connected ? (state.engine.gpsState?.rawValue ?? "waiting for a fix") : "gpsd \(state.link.rawValue)"
            return "\(state.trackingDescription.mode): \(state.engine.trackedCount) tracked of \(state.engine.targets.count); \(gps); \(state.fixes) fixes, \(state.events) events"
        }
    }

    public func poll() -> [String] {
        state.withLock { $0.engine.poll().map(\.jsonLine) }
    }

    public var resolverAvailable: Bool { resolver != nil }
    public var targetResolver: (any TargetResolver)? { resolver }

    /// The engine's part of `status`, as values.
    public struct StatusSnapshot: Sendable {
        public var gps: StatusReply.GPS
        public var tracking: StatusReply.Tracking
        public var targets: [StatusReply.TargetState]
        public var counters: StatusReply.Counters
        public var latency: StatusReply.Latency
    }

    /// Everything `status` reports about the engine side: the state is copied under the lock
    /// and turned into values after it is released.
    public func statusSnapshot() -> StatusSnapshot {
        let s = state.withLock { $0 }
        let lastFix = s.lastFix.flatMap { f in
            f.coordinate.map { c in
                StatusReply.LastFix(time: f.time, lat: c.latitude, lon: c.longitude, mode: Int(f.mode.rawValue),
                                    accuracyM: f.horizontalError, speedMps: f.speed)
            }
        }
        return StatusSnapshot(
            gps: .init(link: s.link.rawValue, reason: s.linkReason, state: s.engine.gpsState?.rawValue ?? "unknown",
                       lastFix: lastFix),
            tracking: .init(mode: s.trackingDescription.mode, radiusM: s.trackingDescription.radius,
                            filter: s.trackingDescription.filter, candidates: s.engine.targets.count,
                            tracked: s.engine.trackedCount),
            targets: s.engine.snapshot().map { t in
                StatusReply.TargetState(target: t.target, distanceM: t.distance, bearingDeg: t.bearing, tier: t.tier.level,
                                        tierName: t.tier.name, trend: t.trend.rawValue, arrived: t.arrived)
            },
            counters: .init(fixes: s.fixes, fixesAccepted: s.engine.stats.accepted, fixesUntimed: s.untimed,
                            outliers: s.engine.stats.outliers, outOfOrder: s.engine.stats.outOfOrder,
                            events: s.events, visitErrors: s.visitErrors),
            latency: .init(samples: Int(clamping: s.latency.count), p50: s.latency.microseconds(atPercentile: 50),
                           p99: s.latency.microseconds(atPercentile: 99), max: s.latency.maxMicroseconds))
    }

    /// Where the receiver was at the last fix (for `near` without a point).
    public var lastFixCoordinate: Coordinate? { state.withLock { $0.lastFix?.coordinate } }

    public var uptimeSeconds: Double {
        Double(GPSDSource.monotonicNanoseconds() &- startedMonotonic) / 1e9
    }
}
