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
struct FixFilter: Sendable {
    enum Verdict: Sendable, Equatable {
        case accept
        /// Accepted, but the history before it should be forgotten (gap or outlier reset).
        case acceptAfterReset
        case noPosition
        case outOfOrder
        case outlier
    }

    public private(set) var last: Fix?
    public private(set) var lastTime: Double?
    // The last accepted fix's position and stated error, kept apart so judging a fix does not
    // copy the whole previous one.
    var lastPosition: Coordinate?
    var lastError: Double?
    var outlierRun = 0
    // The last outlier of the current run (position, error, time), which the next must agree
    // with to extend it.
    var runLast: (Coordinate, Double?)?
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
        guard let there = lastPosition, let lt = lastTime else {
            accept(fix, t)
            return .accept
        }
        let dt = t - lt
        if dt > c.staleAfterSeconds {
            // After a gap nothing can be said about plausibility; start afresh.
            accept(fix, t)
            return .acceptAfterReset
        }
        let error = fix.horizontalError
        if Self.plausible(from: there, lastError, to: here, error, dt: dt, config: c) {
            accept(fix, t)
            return .accept
        }
        // Extend the run when this outlier agrees with the previous one; else start a new run.
        if let (rc, re) = runLast, t > runLastTime,
           Self.plausible(from: rc, re, to: here, error, dt: t - runLastTime, config: c) {
            outlierRun += 1
        } else {
            outlierRun = 1
        }
        runLast = (here, error)
        runLastTime = t
        if outlierRun >= c.outlierRunToReset {
            accept(fix, t)
            return .acceptAfterReset
        }
        return .outlier
    }

    /// Whether a receiver could have gone from `there` to `here` in `dt` seconds, given the
    /// two fixes' stated 95 % errors (nil when unknown).
    static func plausible(from there: Coordinate, _ errorThere: Double?, to here: Coordinate, _ errorHere: Double?,
                          dt: Double, config c: EngineConfig) -> Bool {
        let fastest = c.maxJumpSpeed * dt + c.maxJumpNoise
        let allowed = c.maxSpeed * dt + (errorThere ?? 10) + (errorHere ?? 10) + 5
        // Nearly every fix is well within both limits: settle that without trigonometry.
        if LocalFrame.distanceUpperBound(there, here) <= min(fastest, allowed) { return true }
        let jump = LocalFrame.approximateDistance(there, here)
        guard jump.isFinite, jump <= fastest else { return false }
        return jump <= allowed
    }

    /// Records a fix time that carried no position (so a later fix at the same time is a duplicate).
    mutating func noteTime(_ t: Double) {
        if lastTime.map({ t > $0 }) ?? true { lastTime = t }
    }

    private mutating func accept(_ fix: Fix, _ t: Double) {
        last = fix
        lastPosition = fix.coordinate
        lastError = fix.horizontalError
        lastTime = t
        outlierRun = 0
        runLast = nil
    }
}
