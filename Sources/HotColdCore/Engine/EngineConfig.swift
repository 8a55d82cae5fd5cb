/// Every tunable of the proximity engine, with the defaults a field user wants.
///
/// Loaded from the `[engine]` table of the TOML configuration (see `config/hotcold.toml`).
public struct EngineConfig: Sendable, Equatable {
    /// The tier ladder, hottest first.
    public var tiers: TierLadder = .default
    /// Hysteresis on a tier boundary: the distance must pass the boundary by
    /// max(`tierMarginMin`, `tierMarginFraction` × boundary) before the tier changes.
    public var tierMarginFraction: Double = 0.05
    public var tierMarginMin: Double = 10

    /// Arrival radius (metres) and the wider exit band that must be passed to depart.
    public var arrivalRadius: Double = 100
    public var departureRadius: Double = 150
    /// How much of the 95 % horizontal error is added to the distance before comparing with the
    /// arrival radius (and subtracted before comparing with the exit band): a vague fix makes
    /// arrival and departure harder, never easier.
    public var accuracyWeight: Double = 0.5
    /// An arrival needs this many consecutive fixes inside the radius, or at least two spanning
    /// `arrivalDwellSeconds`.
    public var arrivalDwellFixes: Int = 3
    public var arrivalDwellSeconds: Double = 3
    /// ...and never less than this many seconds, so a 10 Hz receiver cannot arrive on a 0.2 s burst.
    public var arrivalDwellMinSeconds: Double = 1
    /// A departure needs this many consecutive fixes beyond the exit band (one jumped fix is not a departure).
    public var departureDwellFixes: Int = 2
    /// A straight segment between two fixes further apart than this in time is not trusted for
    /// a pass-between-fixes arrival.
    public var passMaxGapSeconds: Double = 30

    /// Trend: samples considered (seconds) and the least span they must cover before a decision.
    public var trendWindowSeconds: Double = 20
    public var trendMinSpanSeconds: Double = 4
    /// Closing speeds below this (m/s) count as standing still.
    public var trendSteadySpeed: Double = 0.5
    /// Stillness is judged on this many recent seconds only, so a stop shows quickly.
    public var trendStillWindowSeconds: Double = 6
    /// A direction must be this many standard errors from zero to count.
    public var trendSignificance: Double = 3
    /// Reversal cadence: hotter↔colder needs the distance to move back by this fraction of the
    /// distance (the distance clamped to `trendCadenceMin...trendCadenceMax`).
    public var trendCadenceFraction: Double = 0.2
    public var trendCadenceMin: Double = 50
    public var trendCadenceMax: Double = 1000
    /// A direction also needs the fitted change over the window to exceed this share of the
    /// stated accuracy: a still receiver wanders inside its error circle.
    public var trendAccuracyShare: Double = 0.5
    /// Seconds the evidence must say "still" before a moving trend turns `steady`.
    public var trendSteadyHoldSeconds: Double = 2

    /// A receiver counts as moving only once two consecutive fixes lie this many sigmas (of
    /// their stated error) from where it stood, and never less than `stillRadiusMin` metres:
    /// time-correlated error drifts a still receiver by a few sigmas, never by this many. The
    /// same distance widens tier margins and the arrival slack while it is not moving.
    public var stillSigmas: Double = 4.5
    public var stillRadiusMin: Double = 5
    /// Consecutive fixes beyond the still radius, on the same side, that make a receiver moving.
    public var movingConfirmFixes: Int = 3
    /// Fixes of a still receiver share their error over about this many seconds, so the mean of
    /// a short stand is no better than one fix: the still radius is widened by
    /// sqrt(1 + 1/n) for n = 1 + seconds stood / this.
    public var stillCorrelationSeconds: Double = 30

    /// No fix for this long makes the GPS state `stale` and trends `unknown`.
    public var staleAfterSeconds: Double = 10
    /// Fastest plausible ground speed (m/s); faster jumps beyond the stated error are outliers.
    public var maxSpeed: Double = 70
    /// A jump implying more than this speed (m/s) beyond `maxJumpNoise` metres is an outlier
    /// whatever error the fixes state, including none: no road vehicle gets there.
    public var maxJumpSpeed: Double = 300
    public var maxJumpNoise: Double = 100
    /// After this many outliers in a row the receiver is believed (it really moved, or we were wrong).
    public var outlierRunToReset: Int = 4

    /// Roam mode: a target leaves range past the roam radius × (1 + this margin).
    public var roamExitMarginFraction: Double = 0.05

    public init() {}

    public static let `default` = EngineConfig()

    /// Human-readable problems with the values, empty when the configuration is usable.
    public func validationProblems() -> [(key: String, problem: String)] {
        var p: [(String, String)] = []
        func positive(_ v: Double, _ key: String) {
            if !(v.isFinite && v > 0) { p.append((key, "must be a positive number, got \(v)")) }
        }
        func nonNegative(_ v: Double, _ key: String) {
            if !(v.isFinite && v >= 0) { p.append((key, "must be zero or more, got \(v)")) }
        }
        positive(arrivalRadius, "arrival_radius")
        positive(departureRadius, "departure_radius")
        if departureRadius < arrivalRadius {
            p.append(("departure_radius", "must be at least arrival_radius (\(arrivalRadius))"))
        }
        nonNegative(accuracyWeight, "accuracy_weight")
        if arrivalDwellFixes < 1 { p.append(("arrival_dwell_fixes", "must be at least 1")) }
        nonNegative(arrivalDwellSeconds, "arrival_dwell_seconds")
        nonNegative(arrivalDwellMinSeconds, "arrival_dwell_min_seconds")
        if departureDwellFixes < 1 { p.append(("departure_dwell_fixes", "must be at least 1")) }
        positive(passMaxGapSeconds, "pass_max_gap_seconds")
        positive(trendWindowSeconds, "trend_window_seconds")
        nonNegative(trendMinSpanSeconds, "trend_min_span_seconds")
        if trendMinSpanSeconds > trendWindowSeconds {
            p.append(("trend_min_span_seconds", "must not exceed trend_window_seconds"))
        }
        nonNegative(trendSteadySpeed, "trend_steady_speed")
        positive(trendStillWindowSeconds, "trend_still_window_seconds")
        positive(trendSignificance, "trend_significance")
        nonNegative(trendCadenceFraction, "trend_cadence_fraction")
        nonNegative(trendAccuracyShare, "trend_accuracy_share")
        nonNegative(trendSteadyHoldSeconds, "trend_steady_hold_seconds")
        positive(staleAfterSeconds, "stale_after_seconds")
        func within(_ v: Double, _ range: ClosedRange<Double>, _ key: String) {
            if !range.contains(v) { p.append((key, "must be from \(range.lowerBound) to \(range.upperBound), got \(v)")) }
        }
        positive(maxSpeed, "max_speed")
        positive(maxJumpSpeed, "max_jump_speed")
        if maxJumpSpeed.isFinite, maxSpeed.isFinite, maxJumpSpeed < maxSpeed {
            p.append(("max_jump_speed", "must be at least max_speed (\(maxSpeed)), got \(maxJumpSpeed)"))
        }
        within(maxJumpNoise, 0...100_000, "max_jump_noise")
        within(stillSigmas, 0...100, "still_sigmas")
        within(stillRadiusMin, 0...10_000, "still_radius_min")
        if movingConfirmFixes < 1 { p.append(("moving_confirm_fixes", "must be at least 1")) }
        positive(stillCorrelationSeconds, "still_correlation_seconds")
        within(stillCorrelationSeconds, 0...86_400, "still_correlation_seconds")
        if outlierRunToReset < 1 { p.append(("outlier_run_to_reset", "must be at least 1")) }
        nonNegative(roamExitMarginFraction, "roam_exit_margin")
        nonNegative(tierMarginFraction, "tier_margin_fraction")
        nonNegative(tierMarginMin, "tier_margin_min")
        return p
    }
}
