/// Holds one target's tier with hysteresis on every boundary.
///
/// The tier moves colder only once the distance passes the upper boundary by a margin, and
/// hotter only once it falls below the lower boundary by a margin, so a receiver standing on a
/// boundary (and jittering across it) keeps its tier. The margin grows with the fix's stated error.
public struct TierTracker: Sendable, Equatable {
    public private(set) var index: Int?

    public init() {}

    /// Updates the tier for a new distance; returns true when the tier changed.
    public mutating func update(distance d: Double, accuracy: Double?, ladder: TierLadder, config: EngineConfig) -> Bool {
        let raw = ladder.index(for: d)
        guard let current = index else {
            index = raw
            return true
        }
        if raw == current { return false }
        if raw > current {
            // Colder: must clear the boundary at the top of the current tier by the margin.
            let b = ladder.bounds[current]
            guard d >= b + TierTracker.margin(b, accuracy, config) else { return false }
        } else {
            // Hotter: must get below the bottom of the current tier by the margin.
            let b = ladder.bounds[current - 1]
            guard d < b - TierTracker.margin(b, accuracy, config) else { return false }
        }
        index = raw
        return true
    }

    static func margin(_ boundary: Double, _ accuracy: Double?, _ config: EngineConfig) -> Double {
        // A vague fix cannot place us on either side of a boundary, so it widens the margin.
        max(config.tierMarginMin, config.tierMarginFraction * boundary, config.accuracyWeight * (accuracy ?? 0))
    }

    public mutating func reset() { index = nil }
}
