/// Decides which fixes the engine may trust, and the receiver's state.
///
/// Drops fixes without a position (mode < 2, invalid coordinate), with times not after the last
/// accepted one (duplicates and time going backwards), and jumps faster than `maxSpeed` beyond
/// what the two fixes' stated errors allow. Stated errors can excuse only so much: a jump
/// implying more than `maxJumpSpeed` (beyond `maxJumpNoise` metres) is an outlier whatever
/// the fixes claim, and an unknown error counts as 10 m.
///
/// A run of outliers that agree among themselves (each plausible from the one before) means
/// the receiver really moved, or the earlier fix was the wrong one: after `outlierRunToReset`
/// of them the newest is believed and the caller is told to forget its history. Outliers that
/// scatter (a receiver emitting garbage) keep restarting the run and are never believed.
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
    // The last outlier of the current run, which the next must agree with to extend it.
    var runLast: Fix?
    var runLastTime = 0.0
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
        if Self.plausible(from: prev, there, to: fix, here, dt: dt, config: c) {
            accept(fix, t)
            return .accept
        }
        // Extend the run when this outlier agrees with the previous one; else start a new run.
        if let r = runLast, let rc = r.coordinate, t > runLastTime,
           Self.plausible(from: r, rc, to: fix, here, dt: t - runLastTime, config: c) {
            outlierRun += 1
        } else {
            outlierRun = 1
        }
        runLast = fix
        runLastTime = t
        if outlierRun >= c.outlierRunToReset {
            accept(fix, t)
            return .acceptAfterReset
        }
        return .outlier
    }

    /// Whether a receiver could have gone from `a` to `b` in `dt` seconds.
    static func plausible(from a: Fix, _ there: Coordinate, to b: Fix, _ here: Coordinate, dt: Double,
                          config c: EngineConfig) -> Bool {
        let jump = LocalFrame.approximateDistance(there, here)
        guard jump.isFinite, jump <= c.maxJumpSpeed * dt + c.maxJumpNoise else { return false }
        return jump <= c.maxSpeed * dt + (a.horizontalError ?? 10) + (b.horizontalError ?? 10) + 5
    }

    /// Records a fix time that carried no position (so a later fix at the same time is a duplicate).
    public mutating func noteTime(_ t: Double) {
        if lastTime.map({ t > $0 }) ?? true { lastTime = t }
    }

    private mutating func accept(_ fix: Fix, _ t: Double) {
        last = fix
        lastTime = t
        outlierRun = 0
        runLast = nil
    }

    public mutating func forgetPosition() {
        last = nil
    }
}
