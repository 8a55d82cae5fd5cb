/// Holds one target's tier with hysteresis on every boundary, and makes every change earn itself.
///
/// The tier moves colder only once the distance passes the upper boundary by a margin, and
/// hotter only once it falls below the lower boundary by a margin, so a receiver standing on a
/// boundary (and jittering across it) keeps its tier. The margin grows with the fix's stated
/// error, and with the still radius while the receiver is not moving (its fixes share their
/// error, so a slow drift must not cross it).
///
/// Past the margin, a change also needs a second fix past it on the same side, unless the fix
/// continues the receiver's motion (`coherent`): one wild fix claiming good accuracy never
/// changes the tier, while a driving receiver changes tier on the fix that crosses.
///
/// A fix whose step follows the reported travelling speed (`followsSpeed`) and moves the
/// distance the way of the change earns it at once with the plain margin: a bike or a boat
/// that starts, or comes back after a gap, crosses when the bare ladder would rather than
/// after the still radius and a second fix (`GoldenTierLatencyTests`).
public struct TierTracker: Sendable, Equatable {
    public private(set) var index: Int?
    // The tier one fix past the margin asked for, awaiting a second one.
    var pending: Int?

    public init() {}

    /// Updates the tier for a new distance; returns true when the tier changed.
    /// - Parameters:
    ///   - stillSlack: extra margin (metres) while the receiver is not moving
    ///   - coherent: the fix continues the receiver's motion, so it needs no second fix
    ///   - followsSpeed: the step follows the reported travelling speed (`MotionDetector`)
    ///   - previousDistance: the distance at the previous trusted fix (NaN when none)
    public mutating func update(distance d: Double, accuracy: Double?, ladder: TierLadder, config: EngineConfig,
                                stillSlack: Double = 0, coherent: Bool = true,
                                followsSpeed: Bool = false, previousDistance: Double = .nan) -> Bool {
        let raw = ladder.index(for: d)
        guard let current = index else {
            index = raw
            return true
        }
        if raw == current {
            pending = nil
            return false
        }
        // Travelling the way of the change: the plain margin, and no second fix.
        let travelling = followsSpeed && (raw > current ? d > previousDistance : d < previousDistance)
        let stillSlack = travelling ? 0 : stillSlack
        if raw > current {
            // Colder: must clear the boundary at the top of the current tier by the margin.
            let b = ladder.bounds[current]
            guard d >= b + max(TierTracker.margin(b, accuracy, config), stillSlack) else {
                pending = nil
                return false
            }
        } else {
            // Hotter: must get below the bottom of the current tier by the margin.
            let b = ladder.bounds[current - 1]
            guard d < b - max(TierTracker.margin(b, accuracy, config), stillSlack) else {
                pending = nil
                return false
            }
        }
        if !coherent && !travelling {
            // A second fix past the margin on the same side confirms it.
            guard let p = pending, (p > current) == (raw > current) else {
                pending = raw
                return false
            }
        }
        index = raw
        pending = nil
        return true
    }

    static func margin(_ boundary: Double, _ accuracy: Double?, _ config: EngineConfig) -> Double {
        // A vague fix cannot place us on either side of a boundary, so it widens the margin.
        max(config.tierMarginMin, config.tierMarginFraction * boundary, config.accuracyWeight * (accuracy ?? 0))
    }

    public mutating func reset() {
        index = nil
        pending = nil
    }
}
