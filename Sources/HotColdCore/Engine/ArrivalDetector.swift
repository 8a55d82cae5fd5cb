/// Arrival within a radius and departure past a wider exit band, for one target.
///
/// Conservative with accuracy: the distance used for arrival is the measured distance plus a
/// share of the error radius, and for departure minus it. An arrival is confirmed by dwell
/// (several fixes, or two spanning some seconds), so one wild fix cannot arrive — unless two
/// trusted fixes bracket a fast pass whose closest approach lies inside the radius.
struct ArrivalDetector: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case away
        case arriving(count: Int, since: Double)
        case arrived
        /// Arrived, with this many consecutive fixes beyond the exit band so far.
        case leaving(count: Int)
    }

    public private(set) var state: State = .away

    public init() {}

    public enum Outcome: Sendable, Equatable {
        case none
        case arrived(distance: Double)
        case departed(distance: Double)
    }

    /// - Parameters:
    ///   - t: fix time (seconds)
    ///   - distance: geodesic distance to the target now
    ///   - accuracy: 95 % horizontal error, when known
    ///   - passDistance: closest approach on the segment from the previous trusted fix, when that
    ///     segment passes the target between its ends (nil otherwise)
    ///   - stillSlack: the least slack while the receiver is not moving: its fixes share their
    ///     error, so dwelling on one side of the radius proves nothing about it
    public mutating func update(t: Double, distance: Double, accuracy: Double?,
                                passDistance: Double?, stillSlack: Double = 0, config c: EngineConfig) -> Outcome {
        let slack = max(c.accuracyWeight * (accuracy ?? 0), stillSlack)
        switch state {
        case .arrived, .leaving:
            guard distance - slack > c.departureRadius else {
                state = .arrived
                return .none
            }
            let count = (state == .arrived ? 0 : { if case .leaving(let n) = state { n } else { 0 } }()) + 1
            if count >= c.departureDwellFixes {
                state = .away
                return .departed(distance: distance)
            }
            state = .leaving(count: count)
            return .none
        case .away, .arriving:
            if let p = passDistance, p + slack <= c.arrivalRadius {
                // Passed inside the radius between two trusted fixes: they are the confirmation.
                state = .arrived
                return .arrived(distance: p)
            }
            if distance + slack <= c.arrivalRadius {
                let (count, since): (Int, Double)
                if case .arriving(let n, let s) = state { (count, since) = (n + 1, s) } else { (count, since) = (1, t) }
                let dwelt = t - since
                if dwelt >= c.arrivalDwellMinSeconds,
                   count >= c.arrivalDwellFixes || (count >= 2 && dwelt >= c.arrivalDwellSeconds) {
                    state = .arrived
                    return .arrived(distance: distance)
                }
                state = .arriving(count: count, since: since)
                return .none
            }
            state = .away
            return .none
        }
    }

    public mutating func reset() { state = .away }

    /// Starts out arrived: the device was already here before this detector saw a fix (a
    /// restart while parked at the target), so the next fixes inside send nothing and fixes
    /// beyond the exit band depart.
    mutating func restoreArrived() { state = .arrived }

    /// Arrived and not yet departed.
    var isArrived: Bool {
        switch state {
        case .arrived, .leaving: true
        case .away, .arriving: false
        }
    }
}
