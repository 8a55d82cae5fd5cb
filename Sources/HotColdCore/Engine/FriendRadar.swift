#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Friends on the radar: followed devices whose positions come through the socket, each a
/// target that moves, judged by the engine's own parts against this car's position.
///
/// Each side (this car, each friend) keeps its own ``FixFilter`` and ``MotionDetector``, so
/// wild fixes, accuracy and stillness are judged for a friend's phone exactly as for our own
/// receiver. The distance between the two last trusted positions then goes through one
/// ``TierTracker``, ``TrendEstimator`` and ``ArrivalDetector`` per friend, with the two
/// accuracies combined and with the stillness of both: a trend is newly called only when one
/// of the two has been seen to move, and while both stand their still radii widen every
/// margin. So a friend's phone drifting at a café while we are parked never reads `hotter`.
///
/// When both sides' velocities are believed (``GroundVelocity``: standing, or travelling with a
/// course that their positions bear out) and recent, the trend follows their relative velocity
/// on the line between them: two parked cars are `steady` within a couple of seconds of the
/// second one stopping, and stay so while both stand, whatever their fixes wander. A friend's
/// phone that sends a speed but no course is believed when it stands; moving, her side is the
/// window's.
///
/// **A friend at rest.** A friend's bridge rightly sends nothing while the car stands, so the
/// fixes that would show the stop never come. While this car stands, a friend is taken to be
/// at rest — `steady`, and staying so — once silent `trendSteadyHoldSeconds` after a fix whose
/// own speed says it stopped, or `restSilence` after a slow one (an old receiver reports ~1 m/s
/// standing; a crawling car is told every few metres). Her next fix takes it from there.
///
/// **Room on the radar.** `maxFriends` at once, explicitly followed devices first: a followed
/// device finding the radar full takes the place of the club-only one heard least recently. A
/// club member's club-only devices (one member: one user of the broker) hold at most
/// `maxPerMember` places, so a member inventing devices cannot fill it.
///
/// Pure like ``ProximityEngine``: time is what the fixes say, and ``advance(to:)`` is how the
/// caller lets it pass (a friend silent past `staleAfter` turns `unknown`; past `forgetAfter`
/// it leaves the radar).
///
/// ```swift
/// var radar = FriendRadar()
/// var events = try radar.processFriend(id: "friend:jane/ute", name: "Jane", fix: janesFix)
/// events += radar.processOwn(ourFix)        // PROXIMITY / ARRIVED / DEPARTED, kind friend
/// events += radar.advance(to: now)          // staleness
/// ```
public struct FriendRadar: Sendable {
    public struct Config: Sendable, Equatable {
        /// Tiers, trend, arrival and the fix filter's rules: the engine's.
        public var engine: EngineConfig
        /// Silent longer than this (seconds): trend `unknown`, marked stale.
        public var staleAfter: Double
        /// Silent longer than this (seconds): off the radar.
        public var forgetAfter: Double
        /// Friends on the radar at once.
        public var maxFriends: Int
        /// Club-only devices of one member on the radar at once.
        public var maxPerMember: Int
        /// Seconds of silence after a slow fix (under `restSpeed`) that make a friend at rest.
        public var restSilence: Double
        /// Speed (m/s) under which a friend's last fix counts as slow.
        public var restSpeed: Double

        public init(engine: EngineConfig = .default, staleAfter: Double = 300, forgetAfter: Double = 3600, maxFriends: Int = 200,
                    maxPerMember: Int? = nil, restSilence: Double = 8, restSpeed: Double = 2) {
            self.engine = engine
            self.staleAfter = staleAfter
            self.forgetAfter = max(forgetAfter, staleAfter)
            self.maxFriends = maxFriends
            self.maxPerMember = max(1, maxPerMember ?? maxFriends / 20)
            self.restSilence = restSilence
            self.restSpeed = restSpeed
        }
    }

    public enum Refusal: Error, Sendable, Equatable {
        /// The radar holds `maxFriends` already (none of them only a club member's, for a
        /// followed device).
        case full(Int)
        /// Club member `member` has `maxPerMember` devices on the radar already.
        case memberFull(String, Int)
    }

    /// Counters for `status` and the tests.
    public struct Stats: Sendable, Equatable {
        public var friendFixes = 0
        public var accepted = 0
        public var outliers = 0
        public var outOfOrder = 0
        public var forgotten = 0
        /// Club-only devices that gave their place to a followed one.
        public var displaced = 0
    }

    public let config: Config
    /// The rules a friend's fixes are judged by: the engine's, but a gap only resets a friend's
    /// history after `staleAfter` (phones report every few seconds to minutes, not at 1 Hz).
    let friendRules: EngineConfig
    public private(set) var stats = Stats()
    var own = Party()
    var friends: [String: Friend] = [:]

    public init(config: Config = Config()) {
        self.config = config
        var rules = config.engine
        rules.staleAfterSeconds = max(rules.staleAfterSeconds, config.staleAfter)
        friendRules = rules
    }

    public var count: Int { friends.count }

    // MARK: - Input

    /// This car's fix (the same fixes the proximity engine gets): every friend's distance moves.
    public mutating func processOwn(_ fix: Fix) -> [Event] {
        var out: [Event] = []
        let t = fix.time.timeIntervalSince1970
        switch own.judge(fix, t: t, config: config.engine) {
        case .accepted:
            for id in friends.keys.sorted() { measure(id, t: t, time: fix.time, mover: .own, into: &out) }
        case .lostPosition:
            invalidateAll(time: fix.time, into: &out)
        case .ignored:
            break
        }
        return out
    }

    /// A friend's fix. `followed`: someone here follows the device (else it comes only as a
    /// club member's); `member`: whose device it is (the broker user), for the club's bound.
    /// A friend new to the radar is admitted while there is room (see the type).
    public mutating func processFriend(id: String, name: String, fix: Fix, followed: Bool = true,
                                       member: String? = nil) throws(Refusal) -> [Event] {
        stats.friendFixes += 1
        if friends[id] == nil {
            try admit(id, followed: followed, member: member ?? id)
            friends[id] = Friend(ref: TargetRef(id: id, name: name, kind: .friend))
        }
        friends[id]!.ref.name = name
        friends[id]!.followed = followed
        friends[id]!.member = member ?? id
        var out: [Event] = []
        let t = fix.time.timeIntervalSince1970
        switch friends[id]!.party.judge(fix, t: t, config: friendRules) {
        case .accepted:
            stats.accepted += 1
            friends[id]!.stale = false
            friends[id]!.resting = false
            measure(id, t: t, time: fix.time, mover: .friend, into: &out)
        case .lostPosition:
            break
        case .ignored(let verdict):
            if verdict == .outlier { stats.outliers += 1 } else { stats.outOfOrder += 1 }
        }
        return out
    }

    /// Room for a new friend, or why not: a club-only device within its member's bound and
    /// the radar's; a followed one displacing the club-only device heard least recently.
    private mutating func admit(_ id: String, followed: Bool, member: String) throws(Refusal) {
        if !followed {
            let members = friends.values.filter { !$0.followed && $0.member == member }.count
            guard members < config.maxPerMember else { throw .memberFull(member, config.maxPerMember) }
        }
        guard friends.count >= config.maxFriends else { return }
        guard followed else { throw .full(config.maxFriends) }
        let clubOnly = friends.filter { !$0.value.followed }
        guard let victim = clubOnly.min(by: { a, b in
            (a.value.party.heard ?? -.infinity, a.key) < (b.value.party.heard ?? -.infinity, b.key)
        }) else { throw .full(config.maxFriends) }
        friends[victim.key] = nil
        stats.displaced += 1
    }

    /// Lets time pass: friends silent past `staleAfter` go `unknown` (one PROXIMITY each),
    /// past `forgetAfter` they leave the radar; our own silence past the engine's
    /// `stale_after_seconds` makes every trend `unknown`. While this car stands, a friend
    /// silent after a stop (see the type) comes to rest: `steady`.
    public mutating func advance(to time: Date) -> [Event] {
        var out: [Event] = []
        let now = time.timeIntervalSince1970
        if let t = own.heard, now - t > config.engine.staleAfterSeconds, own.position != nil {
            own.lose()
            invalidateAll(time: Date(timeIntervalSince1970: t + config.engine.staleAfterSeconds), into: &out)
        }
        for id in friends.keys.sorted() {
            guard let heard = friends[id]!.party.heard else { continue }
            let age = now - heard
            if age > config.forgetAfter {
                friends[id] = nil
                stats.forgotten += 1
            } else if age > config.staleAfter, !friends[id]!.stale {
                friends[id]!.stale = true
                friends[id]!.party.lose()
                _ = friends[id]!.trend.invalidate()
                if friends[id]!.announced {
                    out.append(proximity(friends[id]!, time: Date(timeIntervalSince1970: heard + config.staleAfter)))
                }
            } else if let restAfter = restAfter(friends[id]!), age >= restAfter, own.position != nil, !own.motion.isMoving,
                      friends[id]!.distance.isFinite {
                // Both stand: whatever direction the last fixes gave (hers before her stop, or
                // ours before ours), the distance is not changing now.
                friends[id]!.resting = true
                if friends[id]!.trend.settle(), friends[id]!.announced {
                    out.append(proximity(friends[id]!, time: Date(timeIntervalSince1970: heard + restAfter)))
                }
            }
        }
        return out
    }

    /// Seconds of silence after which friend `f` is at rest, from its last fix's speed; nil
    /// when that fix was fast (or told no speed while the friend was seen to move).
    private func restAfter(_ f: Friend) -> Double? {
        guard !f.stale, f.party.position != nil else { return nil }
        guard let v = f.party.speed else { return f.party.motion.isMoving ? nil : config.restSilence }
        if v <= config.engine.trendSteadySpeed { return config.engine.trendSteadyHoldSeconds }
        return v < config.restSpeed ? config.restSilence : nil
    }

    /// One PROXIMITY per friend with a current distance, nearest first (the socket's `poll`).
    public func poll() -> [Event] {
        guard own.position != nil else { return [] }
        return friends.values.filter { $0.party.position != nil && $0.distance.isFinite && !$0.stale }
            .sorted { ($0.distance, $0.ref.id) < ($1.distance, $1.ref.id) }
            .map { proximity($0, time: Date(timeIntervalSince1970: max($0.sampleTime.isFinite ? $0.sampleTime : 0, own.heard ?? 0))) }
    }

    /// Takes a friend off the radar at once (nobody follows it any more). No event: it is
    /// simply no longer tracked, as a place a new `hunt` leaves out.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        friends.removeValue(forKey: id) != nil
    }

    // MARK: - Measuring

    enum Mover { case own, friend }

    /// The distance between our last trusted position and friend `id`'s, through the friend's
    /// tier, trend and arrival.
    private mutating func measure(_ id: String, t: Double, time: Date, mover: Mover, into out: inout [Event]) {
        guard let here = own.position, var f = friends[id], let there = f.party.position, !f.stale else { return }
        let g = Geodesic.distanceAndBearing(GeodesicPoint(here), GeodesicPoint(there))
        let c = config.engine
        let accuracy = Party.combined(own.judgedAccuracy, f.party.judgedAccuracy)
        let ownSlack = own.motion.stillSlack(config: c), friendSlack = f.party.motion.stillSlack(config: friendRules)
        let stillSlack = (ownSlack * ownSlack + friendSlack * friendSlack).squareRoot()
        // A friend at rest is not moving, whatever her last fixes (from before the stop) said.
        let moving = own.motion.isMoving || (f.party.motion.isMoving && !f.resting)
        let side = mover == .own ? own : f.party
        let closing = own.speed.flatMap { a in f.party.speed.map { a + $0 } }
        let previous = f.distance
        let tierChanged = f.tier.update(distance: g.distance, accuracy: accuracy, ladder: c.tiers, config: c,
                                        stillSlack: stillSlack, coherent: side.motion.stepIsCoherent,
                                        followsSpeed: side.motion.followsReportedSpeed, previousDistance: previous)
        var trendChanged = false
        var outcome = ArrivalDetector.Outcome.none
        // The two timelines interleave: a sample older than the last one measured moves the
        // distance but not the trend's or the arrival's clock. And a fix of ours while we stand
        // says nothing new about the distance (her position is as old as her last report; ours
        // only wanders): fed to the trend, a phone that reports every 30 s would look `steady`
        // between its reports, so only her fixes, and ours while we move, are samples.
        let informative = mover == .friend || own.motion.isMoving
        if informative, !(t <= f.sampleTime) {
            // The rate of approach from both velocities (the relative velocity on the line
            // between the two), when both sides have one that is recent: standing, or
            // travelling with a course.
            var rate: ClosingRate? = nil
            if let ours = own.velocity(at: t), let hers = f.party.velocity(at: t) {
                let (ux, uy) = sincosd(g.bearing)
                rate = ours.closing(with: hers, towardsX: ux, y: uy, distance: g.distance)
            }
            trendChanged = f.trend.add(t: t, distance: g.distance, accuracy: accuracy, speed: closing, moving: moving,
                                       closing: rate, config: c)
            outcome = f.arrival.update(t: t, distance: g.distance, accuracy: accuracy, passDistance: nil,
                                       stillSlack: stillSlack, config: c)
            f.sampleTime = t
        }
        f.distance = g.distance
        f.bearing = g.bearing
        f.accuracy = accuracy
        if tierChanged || trendChanged || !f.announced {
            f.announced = true
            out.append(proximity(f, time: time))
        }
        switch outcome {
        case .none: break
        case .arrived(let d): out.append(.arrived(.init(time: time, target: f.ref, distance: d)))
        case .departed(let d): out.append(.departed(.init(time: time, target: f.ref, distance: d)))
        }
        friends[id] = f
    }

    private mutating func invalidateAll(time: Date, into out: inout [Event]) {
        for id in friends.keys.sorted() {
            if friends[id]!.trend.invalidate(), friends[id]!.announced { out.append(proximity(friends[id]!, time: time)) }
        }
    }

    private func proximity(_ f: Friend, time: Date) -> Event {
        let tiers = config.engine.tiers
        let tier = tiers.tiers[f.tier.index ?? tiers.index(for: f.distance)]
        var eta: Double? = nil
        if f.trend.trend == .hotter, let v = f.trend.closingSpeed, v > config.engine.trendSteadySpeed { eta = f.distance / v }
        return .proximity(.init(time: time, target: f.ref, distance: f.distance, bearing: f.bearing, tier: tier.level,
                                tierName: tier.name, trend: f.stale ? .unknown : f.trend.trend, accuracy: f.accuracy,
                                speed: nil, eta: eta))
    }
}
