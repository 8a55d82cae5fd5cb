import HotColdCore

/// The `[engine]` keys and where each lands in `EngineConfig`.
struct EngineKeys {
    enum Kind { case distance, number, count }
    let key: String
    let kind: Kind
    let set: @Sendable (inout EngineConfig, Double) -> Void

    /// A `.count` value as an `Int`: the loader passes only whole numbers in 1…1000, so this is
    /// exact; anything else becomes 0, which `EngineConfig.validationProblems` refuses.
    static func whole(_ v: Double) -> Int { Int(exactly: v) ?? 0 }

    static let all: [EngineKeys] = [
        .init(key: "arrival_radius", kind: .distance) { $0.arrivalRadius = $1 },
        .init(key: "departure_radius", kind: .distance) { $0.departureRadius = $1 },
        .init(key: "accuracy_weight", kind: .number) { $0.accuracyWeight = $1 },
        .init(key: "arrival_dwell_fixes", kind: .count) { $0.arrivalDwellFixes = whole($1) },
        .init(key: "arrival_dwell_seconds", kind: .number) { $0.arrivalDwellSeconds = $1 },
        .init(key: "arrival_dwell_min_seconds", kind: .number) { $0.arrivalDwellMinSeconds = $1 },
        .init(key: "departure_dwell_fixes", kind: .count) { $0.departureDwellFixes = whole($1) },
        .init(key: "pass_max_gap_seconds", kind: .number) { $0.passMaxGapSeconds = $1 },
        .init(key: "trend_window_seconds", kind: .number) { $0.trendWindowSeconds = $1 },
        .init(key: "trend_min_span_seconds", kind: .number) { $0.trendMinSpanSeconds = $1 },
        .init(key: "trend_steady_speed", kind: .number) { $0.trendSteadySpeed = $1 },
        .init(key: "trend_still_window_seconds", kind: .number) { $0.trendStillWindowSeconds = $1 },
        .init(key: "trend_significance", kind: .number) { $0.trendSignificance = $1 },
        .init(key: "trend_cadence_fraction", kind: .number) { $0.trendCadenceFraction = $1 },
        .init(key: "trend_cadence_min", kind: .distance) { $0.trendCadenceMin = $1 },
        .init(key: "trend_cadence_max", kind: .distance) { $0.trendCadenceMax = $1 },
        .init(key: "trend_accuracy_share", kind: .number) { $0.trendAccuracyShare = $1 },
        .init(key: "trend_steady_hold_seconds", kind: .number) { $0.trendSteadyHoldSeconds = $1 },
        .init(key: "stale_after_seconds", kind: .number) { $0.staleAfterSeconds = $1 },
        .init(key: "max_speed", kind: .number) { $0.maxSpeed = $1 },
        .init(key: "max_jump_speed", kind: .number) { $0.maxJumpSpeed = $1 },
        .init(key: "max_jump_noise", kind: .distance) { $0.maxJumpNoise = $1 },
        .init(key: "still_sigmas", kind: .number) { $0.stillSigmas = $1 },
        .init(key: "still_radius_min", kind: .distance) { $0.stillRadiusMin = $1 },
        .init(key: "moving_confirm_fixes", kind: .count) { $0.movingConfirmFixes = whole($1) },
        .init(key: "still_correlation_seconds", kind: .number) { $0.stillCorrelationSeconds = $1 },
        .init(key: "outlier_run_to_reset", kind: .count) { $0.outlierRunToReset = whole($1) },
        .init(key: "tier_margin_fraction", kind: .number) { $0.tierMarginFraction = $1 },
        .init(key: "tier_margin_min", kind: .distance) { $0.tierMarginMin = $1 },
        .init(key: "roam_exit_margin", kind: .number) { $0.roamExitMarginFraction = $1 },
    ]
}
