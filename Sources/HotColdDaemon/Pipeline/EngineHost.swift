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
/// Each fix's events go to the ``EventGate`` under the engine lock, which publishes them at
/// once (numbered, to the log and the socket) — except an ARRIVED or DEPARTED at a stored
/// place, which waits there until its visit is stored by the ``VisitRecorder`` on its own
/// thread. So an ARRIVED is in the store before anyone hears of it, yet a busy or full
/// database never holds up the engine.
///
/// The places the device is "at" (arrived, not departed) are kept here: restored from the
/// store at start, and given back to the engine whenever it starts afresh (hunt, roam,
/// reload), so neither a restart nor a retarget is a new arrival.
public final class EngineHost: Sendable {
    enum Link: String, Sendable { case connecting, connected, lost }

    struct State {
        var engine: ProximityEngine
        var trackingDescription: TrackingDescription
        var link: Link = .connecting
        var linkReason: String?
        var lastFix: Fix?
        var lastFixMonotonic: ContinuousClock.Instant?
        /// When the last accepted fix arrived (its age is measured from here, never from its
        /// time stamp), and its time minus this box's wall clock then.
        var lastFixArrival: ContinuousClock.Instant?
        var clockOffset: Double?
        /// Per friend: its clock's offset from this car's fix timeline (see ``onOwnTimeline``).
        var friendClockOffsets: [String: Double] = [:]
        var fixes = 0
        var untimed = 0
        var events = 0
        var latency = LatencyRecorder()
        /// Stored places arrived at and not departed from (restored ones included).
        var at: Set<String>
        /// Followed devices, judged against our own fixes.
        var radar: FriendRadar
    }

    /// How the current target set came about, for `status`.
    struct TrackingDescription: Sendable, Equatable {
        var mode: TrackingMode
        /// What a roam follows, as given (`bigthing,geocache favourites`).
        public var filter: String?

        init(mode: TrackingMode, filter: String? = nil) {
            self.mode = mode
            self.filter = filter
        }

        static let hunt = TrackingDescription(mode: .hunt)

        /// `hunt` or `roam`, as the protocol names them.
        var modeName: String {
            switch mode {
            case .hunt: "hunt"
            case .roam: "roam"
            }
        }

        var radius: Double? {
            if case .roam(let r) = mode { r } else { nil }
        }
    }

    private let state: Mutex<State>
    private let sink: any EventSink
    private let gate: EventGate
    private let places: (any PlaceRecords)?
    /// The places restored as "at" when the daemon started.
    let restored: Set<String>
    private let logger: Logger
    private let startedMonotonic = ContinuousClock.now

    /// `restored`: the stored places the device is at already (open visits), handed to the engine.
    init(engine: ProximityEngine, tracking: TrackingDescription, sink: any EventSink,
                places: (any PlaceRecords)?, arrivalUser: String, restored: Set<String> = [],
                visitLimits: VisitRecorder.Limits = .init(), friends: FriendsSettings = .init(), logger: Logger) {
        var engine = engine
        if !restored.isEmpty { engine.restoreArrivals(restored) }
        let radar = FriendRadar(config: friends.radarConfig(engine.config))
        self.state = Mutex(State(engine: engine, trackingDescription: tracking, at: restored, radar: radar))
        self.sink = sink
        self.gate = EventGate(sink: sink, places: places, user: arrivalUser, limits: visitLimits, logger: logger)
        self.places = places
        self.restored = restored
        self.logger = logger
    }

    /// What stores visits off the engine's path (nil without a database); its loop runs in
    /// ``VisitRecorderService``.
    var visitRecorder: VisitRecorder? { gate.recorder }

    // MARK: - Input

    /// One input from the gpsd source (its thread).
    public func handle(_ input: GPSDEvent) {
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
                    sink.publish(.engine(.gps(Event.GPSChange(time: Self.fixTimeNow(state), state: .lost, reason: reason))))
                    state.events += 1
                }
            case .fix(let fix, let receivedAt):
                state.fixes += 1
                process(fix, &state)
                let now = ContinuousClock.now
                state.lastFixMonotonic = now
                state.latency.record(now - receivedAt)
            case .untimed(let mode, _):
                state.untimed += 1
                // gpsd sends mode-1 reports without a time: place them on the fix timeline now.
                if mode < .twoD {
                    process(Fix(time: Self.fixTimeNow(state), coordinate: nil, mode: mode), &state)
                }
            }
        }
    }

    /// A device's position (`friend_fix`, checked at the edge): onto the radar. `followed`:
    /// someone here follows it (else it came as a club member's). Followed devices have room
    /// before club members', and one member's devices are bounded (``FriendRadar``).
    func friendFix(_ f: FriendFixRequest, followed: Bool) throws(ProtocolError) {
        let refusal: FriendRadar.Refusal? = state.withLock { state in
            let known = state.friendClockOffsets[f.who.targetID] != nil
            let fix = Fix(time: Self.onOwnTimeline(f, &state), coordinate: Coordinate(latitude: f.lat, longitude: f.lon),
                          mode: .twoD, eph: f.accuracyM, speed: f.speedMps)
            do throws(FriendRadar.Refusal) {
                publish(try state.radar.processFriend(id: f.who.targetID, name: f.name ?? f.who.defaultName, fix: fix,
                                                      followed: followed, member: f.who.user), &state)
                return nil
            } catch {
                // A device refused leaves no clock behind: a flood of made-up devices must not
                // fill the table and so clear the friends' own.
                if !known { state.friendClockOffsets[f.who.targetID] = nil }
                return error
            }
        }
        switch refusal {
        case .full(let n)?:
            throw ProtocolError(.quota, command: "friend_fix", field: "who", followed
                                ? "the radar holds \(n) followed friends already; \(f.who) is not added"
                                : "the radar holds \(n) friends already; \(f.who), a club member's device nobody here follows, is not added")
        case .memberFull(_, let n)?:
            throw ProtocolError(.quota, command: "friend_fix", field: "who",
                                "club member \(f.who.user) has \(n) devices on the radar already; \(f.who) is not added (follow it to make room)")
        case nil:
            break
        }
    }

    /// A friend's fix time moved onto this car's own timeline (the fixes' time plus the
    /// monotonic time since the last one arrived): the friend's clock and this one may be
    /// years apart. The friend's own intervals are kept (they judge its speed), anchored so
    /// that a fix is never later than its arrival nor older than its arrival by more than a
    /// delivery could take; outside that, it is re-anchored at its arrival. So a friend's age
    /// is how long ago its position arrived here, whatever either clock says.
    static func onOwnTimeline(_ f: FriendFixRequest, _ state: inout State) -> Date {
        let now = fixTimeNow(state)
        let key = f.who.targetID
        if let offset = state.friendClockOffsets[key] {
            let mapped = f.time.addingTimeInterval(offset)
            if mapped <= now.addingTimeInterval(1), mapped >= now.addingTimeInterval(-Self.friendDeliverySlack) {
                return mapped
            }
        }
        if state.friendClockOffsets.count >= FriendLimits.radarFriends * 2 { state.friendClockOffsets.removeAll() }
        state.friendClockOffsets[key] = now.timeIntervalSince(f.time)
        return now
    }

    /// How much later than its own interval says a friend's fix may arrive and still keep it
    /// (a broker queue, a link that stalled), seconds.
    static let friendDeliverySlack = 120.0

    /// Takes a device off the radar (unfollowed by everyone here).
    func forgetFriend(_ who: FriendID) {
        state.withLock {
            _ = $0.radar.remove(id: who.targetID)
            $0.friendClockOffsets[who.targetID] = nil
        }
    }

    /// Publishes an event that is not the engine's (a FEED, LIKE, RECORD, FOLLOWING_CHANGED):
    /// numbered and fanned out like the engine's, in the order of calls.
    func announce(_ event: PublishedEvent) { sink.publish(event) }

    /// Called every second: staleness when fixes stop arriving. Returns normally only if the
    /// engine lock could be taken, which is what the watchdog ping certifies.
    func tick() {
        state.withLock { state in
            let now = Self.fixTimeNow(state)
            publish(state.engine.advance(to: now), &state)
            publish(state.radar.advance(to: now), &state)
        }
    }

    private func process(_ fix: Fix, _ state: inout State) {
        let before = state.engine.lastFix?.time
        let events = state.engine.process(fix)
        if state.engine.lastFix?.time != before, let f = state.engine.lastFix {
            state.lastFix = f
            state.lastFixArrival = ContinuousClock.now
            state.clockOffset = f.time.timeIntervalSince(Date())
            // Live to the watchers naming FIX (the MQTT bridge): a queue append here, encoded
            // on the output stage's thread.
            if let c = f.coordinate {
                sink.publish(.fix(FixEvent(time: f.time, lat: c.latitude, lon: c.longitude, mode: Int(f.mode.rawValue),
                                           accuracyM: f.horizontalError, speedMps: f.speed, trackDeg: f.track,
                                           satellites: f.satellites)))
            }
        }
        publish(events, &state)
        // The same fix moves every friend's distance.
        publish(state.radar.processOwn(fix), &state)
    }

    private func publish(_ events: [Event], _ state: inout State) {
        guard !events.isEmpty else { return }
        for e in events {
            switch e {
            case .arrived(let p) where gate.recordsVisits(for: p.target): state.at.insert(p.target.id)
            case .departed(let p) where gate.recordsVisits(for: p.target): state.at.remove(p.target.id)
            default: break
            }
        }
        gate.submit(events)
        state.events += events.count
    }

    /// "Now" on the fixes' own timeline: the last fix time plus the monotonic time since it
    /// arrived (receivers may be 1024 weeks out; the wall clock would disagree with them).
    private static func fixTimeNow(_ state: State) -> Date {
        let now = ContinuousClock.now
        if let f = state.lastFix, let m = state.lastFixMonotonic {
            return f.time.addingTimeInterval((now - m).seconds)
        }
        return Date()
    }

    // MARK: - Commands

    func retarget(_ targets: [Target], tracking description: TrackingDescription) {
        state.withLock { state in
            state.engine.retarget(targets, mode: description.mode)
            // Still at the same places: a new target set is no new arrival.
            if !state.at.isEmpty { state.engine.restoreArrivals(state.at) }
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
    func reconfigure(_ config: EngineConfig, friends: FriendsSettings? = nil) {
        state.withLock { state in
            // A new radar: friends come back with their next fix (within seconds).
            let radarConfig = (friends ?? FriendsSettings(state.radar.config)).radarConfig(config)
            if radarConfig != state.radar.config { state.radar = FriendRadar(config: radarConfig) }
            guard config != state.engine.config else { return }
            state.engine = ProximityEngine(targets: state.engine.targets, mode: state.engine.mode, config: config)
            if !state.at.isEmpty { state.engine.restoreArrivals(state.at) }
        }
    }

    /// A one-line summary for systemd's STATUS=.
    /// What the engine tracks now (hunt or roam, radius, filter).
    var trackingDescription: TrackingDescription { state.withLock { $0.trackingDescription } }

    func summary() -> String {
        state.withLock { state in
            let gps = state.link == .connected ? (state.engine.gpsState?.rawValue ?? "waiting for a fix") : "gpsd \(state.link.rawValue)"
            return "\(state.trackingDescription.modeName): \(state.engine.trackedCount) tracked of \(state.engine.targets.count); \(gps); \(state.fixes) fixes, \(state.events) events"
        }
    }

    func poll() -> [String] {
        state.withLock { $0.engine.poll() + $0.radar.poll() }.map { EventMessage($0).line }
    }

    /// The publisher, when the sink is the daemon's (for `watch` with `since`).
    var publisher: EventPublisher? { (sink as? OutputStage)?.publisher ?? sink as? EventPublisher }

    /// Visits for `status` and `poll`: where the device is, and how storing them goes.
    var visits: VisitsStatus {
        let at = state.withLock { $0.at }
        return VisitsStatus(at: at.sorted(), restored: restored.sorted(),
                            recorder: gate.recorder?.status ?? .init(), heldEvents: gate.heldCount)
    }
    var placeRecords: (any PlaceRecords)? { places }

    /// The engine's part of `status`, as values.
    struct StatusSnapshot: Sendable {
        var gps: StatusReply.GPS
        var tracking: StatusReply.Tracking
        public var targets: [StatusReply.TargetState]
        var counters: StatusReply.Counters
        var latency: StatusReply.Latency
        var visits: StatusReply.Visits
        var sequence: StatusReply.Sequence?
        /// Friends on the radar, nearest first.
        var friends: [StatusReply.Friend]
    }

    /// Everything `status` reports about the engine side: the state is copied under the lock
    /// and turned into values after it is released.
    func statusSnapshot() -> StatusSnapshot {
        let s = state.withLock { $0 }
        let visits = self.visits
        let lastFix = s.lastFix.flatMap { f in
            f.coordinate.map { c in
                StatusReply.LastFix(time: f.time, lat: c.latitude, lon: c.longitude, mode: Int(f.mode.rawValue),
                                    accuracyM: f.horizontalError, speedMps: f.speed, trackDeg: f.track,
                                    satellites: f.satellites,
                                    ageS: s.lastFixArrival.map { (ContinuousClock.now - $0).seconds },
                                    clockOffsetS: s.clockOffset)
            }
        }
        return StatusSnapshot(
            gps: .init(link: s.link.rawValue, reason: s.linkReason, state: s.engine.gpsState?.rawValue ?? "unknown",
                       lastFix: lastFix),
            tracking: .init(mode: s.trackingDescription.modeName, radiusM: s.trackingDescription.radius,
                            filter: s.trackingDescription.filter, candidates: s.engine.targets.count,
                            tracked: s.engine.trackedCount, tiers: s.engine.config.tiers.tiers.reversed().map(\.name)),
            targets: s.engine.snapshot().map { t in
                StatusReply.TargetState(target: t.target, distanceM: t.distance, bearingDeg: t.bearing, tier: t.tier.level,
                                        tierName: t.tier.name, trend: t.trend.rawValue, arrived: t.arrived, at: t.coordinate)
            },
            counters: .init(fixes: s.fixes, fixesAccepted: s.engine.stats.accepted, fixesUntimed: s.untimed,
                            outliers: s.engine.stats.outliers, outOfOrder: s.engine.stats.outOfOrder,
                            events: s.events, visitErrors: visits.recorder.failed + visits.recorder.dropped),
            latency: .init(samples: Int(clamping: s.latency.count), p50: s.latency.microseconds(atPercentile: 50),
                           p99: s.latency.microseconds(atPercentile: 99), max: s.latency.maxMicroseconds),
            visits: visits.reply, sequence: publisher?.sequence.status.reply,
            friends: Self.friends(s.radar.snapshot(), now: Self.fixTimeNow(s)))
    }

    /// The radar's friends as `status` lists them; ages on the fixes' timeline.
    static func friends(_ states: [FriendRadar.FriendState], now: Date) -> [StatusReply.Friend] {
        states.map { f in
            StatusReply.Friend(who: String(f.target.id.dropFirst("friend:".count)), name: f.target.name,
                               distanceM: f.distance, bearingDeg: f.bearing, tier: f.tier?.level, tierName: f.tier?.name,
                               trend: f.trend.rawValue, arrived: f.arrived,
                               ageS: max(0, f.heard.map { now.timeIntervalSince($0) } ?? 0), stale: f.stale)
        }
    }

    /// The friends on the radar with a known distance, nearest first (`near --kind friend`).
    func nearbyFriends() -> [FriendRadar.FriendState] {
        state.withLock { $0.radar.snapshot() }.filter { $0.distance != nil }
    }

    /// Where the receiver was at the last fix (for `near` without a point).
    var lastFixCoordinate: Coordinate? { state.withLock { $0.lastFix?.coordinate } }

    /// Targets the engine holds (tracked or not).
    var trackingCount: Int { state.withLock { $0.engine.targets.count } }

    var uptimeSeconds: Double {
        (ContinuousClock.now - startedMonotonic).seconds
    }
}
