/// Decides which fixes the engine may trust, and the receiver's state.
///
/// Drops fixes without a position (mode < 2, invalid coordinate), with times not after the last
/// accepted one (duplicates and time going backwards), and jumps faster than `maxSpeed` beyond
/// what the two fixes' stated errors allow. A run of outliers means the receiver really moved
/// (or the earlier fix was the wrong one), so after `outlierRunToReset` of them the newest is
/// believed and the caller is told to forget its history.
public struct FixFilter: Sendable {
    public enum Verdict: Sendable, Equatable {
        case accept
        /// Accepted, but the history before it should be forgotten (gap or outlier reset).
        case acceptAfterReset
        case noPosition
        case outOfOrder
        case outlier
    }

    public private(set) var last: Fix?
    public private(set) var lastTime: Double?
    var outlierRun = 0
    // Rejected-as-out-of-order fixes that are in order among themselves: a clock that jumped
    // (a future-dated fix, a receiver stepping its time back) rather than stray repeats.
    var backwardsRun = 0
    var backwardsLast: Double?

    public init() {}

    public mutating func judge(_ fix: Fix, t: Double, config c: EngineConfig) -> Verdict {
        if let lt = lastTime, t <= lt {
            // After enough of them the new timeline is believed, so one bad timestamp cannot
            // swallow the rest of a recording.
            if let b = backwardsLast, t > b { backwardsRun += 1 } else if backwardsLast != t { backwardsRun = 1 }
            backwardsLast = t
            guard backwardsRun >= c.outlierRunToReset, fix.hasPosition, fix.coordinate != nil else { return .outOfOrder }
            backwardsRun = 0
            backwardsLast = nil
            accept(fix, t)
            return .acceptAfterReset
        }
        backwardsRun = 0
        backwardsLast = nil
        guard fix.hasPosition, let here = fix.coordinate else {
            return .noPosition
        }
        guard let prev = last, let lt = lastTime, let there = prev.coordinate else {
            accept(fix, t)
            return .accept
        }
        let dt = t - lt
        if dt > c.staleAfterSeconds {
            // After a gap nothing can be said about plausibility; start afresh.
            accept(fix, t)
            return .acceptAfterReset
        }
        let jump = LocalFrame.approximateDistance(there, here)
        let allowance = c.maxSpeed * dt + (prev.horizontalError ?? 10) + (fix.horizontalError ?? 10) + 5
        if jump > allowance {
            outlierRun += 1
            if outlierRun >= c.outlierRunToReset {
                accept(fix, t)
                return .acceptAfterReset
            }
            return .outlier
        }
        accept(fix, t)
        return .accept
    }

    /// Records a fix time that carried no position (so a later fix at the same time is a duplicate).
    public mutating func noteTime(_ t: Double) {
        if lastTime.map({ t > $0 }) ?? true { lastTime = t }
    }

    private mutating func accept(_ fix: Fix, _ t: Double) {
        last = fix
        lastTime = t
        outlierRun = 0
    }

    public mutating func forgetPosition() {
        last = nil
    }
}
