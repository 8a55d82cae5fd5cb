#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FriendRadar {
    /// One side of a distance (this car, or a friend): its fix filter, its motion, and its
    /// last trusted position.
    struct Party: Sendable {
        var filter = FixFilter()
        var motion = MotionDetector()
        var position: Coordinate?
        var accuracy: Double?
        var speed: Double?
        /// The velocity of the last trusted fix, when its positions bear it out.
        var velocity: GroundVelocity?
        /// The time of the last trusted fix (seconds), for staleness.
        var heard: Double?

        enum Outcome: Equatable {
            case accepted
            /// A fix without a position: this side's position is no longer current.
            case lostPosition
            case ignored(FixFilter.Verdict)
        }

        /// Judges a fix as the engine judges its own (outliers, order, gaps), and moves this side.
        mutating func judge(_ fix: Fix, t: Double, config c: EngineConfig) -> Outcome {
            let verdict = filter.judge(fix, t: t, config: c)
            switch verdict {
            case .accept, .acceptAfterReset:
                if verdict == .acceptAfterReset { motion.reset() }
                let here = fix.coordinate!
                motion.update(here, t: t, accuracy: fix.horizontalError, speed: fix.speed, course: fix.track, config: c)
                position = here
                accuracy = fix.horizontalError
                speed = fix.speed
                velocity = motion.velocity
                heard = t
                return .accepted
            case .noPosition:
                filter.noteTime(t)
                lose()
                return .lostPosition
            case .outlier, .outOfOrder:
                return .ignored(verdict)
            }
        }

        /// Forgets the position and the motion (silence, no fix); `heard` stays for ageing.
        mutating func lose() {
            position = nil
            velocity = nil
            motion.reset()
        }

        /// The velocity to use at time `t`: the last fix's, while it is recent.
        func velocity(at t: Double) -> GroundVelocity? {
            guard let v = velocity, t - v.time <= GroundVelocity.maxAgeSeconds else { return nil }
            return v
        }

        /// The accuracy decisions use: stated, else the scatter learned for this receiver.
        var judgedAccuracy: Double? { accuracy ?? motion.learnedError }

        /// Two independent 95 % errors combined (nil when neither is known).
        static func combined(_ a: Double?, _ b: Double?) -> Double? {
            switch (a, b) {
            case (nil, nil): nil
            case let (x?, y?): (x * x + y * y).squareRoot()
            case let (x?, nil), let (nil, x?): x
            }
        }
    }

    /// A friend on the radar: its side and the distance's tier, trend and arrival.
    struct Friend: Sendable {
        var ref: TargetRef
        var party = Party()
        var tier = TierTracker()
        var trend = TrendEstimator()
        var arrival = ArrivalDetector()
        var distance = Double.nan
        var bearing = Double.nan
        var accuracy: Double?
        /// The newest time the trend and arrival were fed.
        var sampleTime = -Double.infinity
        var announced = false
        var stale = false
        /// Someone here follows the device (else it is on the radar as a club member's).
        var followed = true
        /// Whose device it is (for the club's bound on one member's devices).
        var member = ""
        /// Silent after a stop while this car stands (see ``FriendRadar``): `steady` until
        /// her next fix.
        var resting = false

        init(ref: TargetRef) { self.ref = ref }
    }

    /// One friend as `status` shows it.
    public struct FriendState: Sendable, Equatable {
        public var target: TargetRef
        /// Nil while either side has no current position.
        public var distance: Double?
        public var bearing: Double?
        public var tier: Tier?
        public var trend: Trend
        public var arrived: Bool
        /// The friend's last trusted position and its time.
        public var position: Coordinate?
        public var heard: Date?
        public var stale: Bool
    }

    /// Every friend on the radar, nearest first (unknown distances last), ties by id.
    public func snapshot() -> [FriendState] {
        let tiers = config.engine.tiers
        let current = own.position != nil
        return friends.values.map { f in
            let known = current && f.party.position != nil && f.distance.isFinite && !f.stale
            return FriendState(target: f.ref, distance: known ? f.distance : nil, bearing: known ? f.bearing : nil,
                               tier: known ? tiers.tiers[f.tier.index ?? tiers.index(for: f.distance)] : nil,
                               trend: known ? f.trend.trend : .unknown, arrived: f.arrival.isArrived,
                               position: f.party.position, heard: f.party.heard.map { Date(timeIntervalSince1970: $0) },
                               stale: f.stale)
        }.sorted { a, b in
            (a.distance ?? .infinity, a.target.id) < (b.distance ?? .infinity, b.target.id)
        }
    }
}
