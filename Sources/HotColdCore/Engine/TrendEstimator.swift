/// Hotter / colder / steady from the rate of approach over a time window.
///
/// Each fix adds (time, distance). A least-squares line through the window's samples gives the
/// closing rate and its standard error. A direction is called only when the rate is significant
/// against both the scatter of the samples and the stated accuracy, and when the fitted change
/// over the window is larger than what a still receiver wanders. Reversals (hotter ↔ colder)
/// need the distance to move back by a share of the distance itself, so a receiver circling
/// near the target does not flip on every step; `steady` needs the evidence of stillness to
/// hold for a few seconds, so a car at a red light is noticed but a pause of one fix is not.
///
/// When the fix comes with a credible velocity (``GroundVelocity``, judged by the motion
/// detector), its rate of approach (``ClosingRate``) decides instead: a direction as soon as the
/// rate is significant against its own error, including a reversal (the car has passed the
/// target, or turned), with no window to wait for; `steady` when the velocity says the distance
/// is not changing. A window still decides `steady` when the rate is inconclusive, but while
/// the velocity is credible no direction comes from it. Without a credible velocity (none
/// reported, or not borne out by the positions), everything is the window's, as above.
struct TrendEstimator: Sendable {
    @usableFromInline struct Sample: Sendable {
        var t: Double
        var d: Double
        /// Least-squares weights from the fix's 95 % error, for the whole window and for the
        /// recent few seconds (see `weight`), worked out once when the sample comes in rather
        /// than on every fit that includes it.
        var wFull: Double
        var wRecent: Double
        /// Ground speed the receiver reported (m/s), or -infinity when it reported none.
        var speed: Double
    }

    public private(set) var trend: Trend = .unknown
    /// Closing speed (m/s, positive when approaching), for the ETA. With a credible velocity on
    /// the newest sample: its rate of approach when significantly positive, else nil (not
    /// really closing in). Otherwise the window's fitted rate, when it allows a fit, capped by
    /// the ground speed last reported. Worked out when asked (the engine asks only for the ETA
    /// of a `hotter` it announces), so the whole-window fit is not paid on every fix that the
    /// recent seconds already decide.
    var closingSpeed: Double? {
        if let c = lastClosing {
            return c.rate > 0 && c.exceeds(sigmas: significance) ? c.rate : nil
        }
        guard windowReady, let full = fit(from: head, share: .full) else { return nil }
        // No faster than the ground speed reported with the newest sample: a window that still
        // holds the approach says nothing of a car that has stopped since.
        let v = samples[samples.count - 1].speed
        return v < 0 ? -full.slope : min(-full.slope, v)
    }
    // The rate of approach from velocity given with the newest sample, if any, and the
    // significance it was judged at.
    @usableFromInline var lastClosing: ClosingRate?
    // The sample weights last worked out, and the accuracy they are for.
    @usableFromInline var weightsAccuracy: Double?
    @usableFromInline var weights = (full: 0.0, recent: 0.0)
    @usableFromInline var significance = 3.0
    // The window holds enough samples over enough time for a fit.
    @usableFromInline var windowReady = false

    @usableFromInline var samples: [Sample] = []
    @usableFromInline var head = 0
    // Distance extreme since the current direction was declared (for reversal cadence).
    @usableFromInline var extreme: Double = 0
    // When the evidence first said "still" while the trend was hotter/colder.
    @usableFromInline var stillSince: Double?
    // The fastest reported speed in the window (-infinity when none), and the time of the
    // newest sample reporting it: it is looked for again only once that sample leaves.
    @usableFromInline var fastest = -Double.infinity
    @usableFromInline var fastestAt = -Double.infinity

    public init() {}

    public mutating func reset() {
        trend = .unknown
        windowReady = false
        samples.removeAll(keepingCapacity: true)
        head = 0
        stillSince = nil
        fastest = -.infinity
        fastestAt = -.infinity
        lastClosing = nil
    }

    /// Adds a sample at time `t` (seconds) and distance `d` with 95 % accuracy `accuracy` (metres).
    /// `moving` says whether the receiver has been seen to move (`MotionDetector`): a receiver
    /// that has not is never newly called hotter or colder, however its fixes drift.
    /// `closing` is the rate of approach from credible velocities, when there is one.
    /// Returns true when the trend changed.
    public mutating func add(t: Double, distance d: Double, accuracy: Double?, speed: Double? = nil,
                             moving: Bool = true, closing: ClosingRate? = nil, config c: EngineConfig) -> Bool {
        // Drop samples older than the window.
        // The weights of the previous sample when the accuracy is the same (a receiver's stated
        // error changes less often than its fixes come): two divisions saved.
        if accuracy != weightsAccuracy || samples.isEmpty {
            weightsAccuracy = accuracy
            weights = (Self.weight(accuracy, FitShare.full.rawValue), Self.weight(accuracy, FitShare.recent.rawValue))
        }
        samples.append(Sample(t: t, d: d, wFull: weights.full, wRecent: weights.recent,
                              speed: speed.map { max($0, 0) } ?? -.infinity))
        let v = samples[samples.count - 1].speed
        if v >= fastest { fastest = v; fastestAt = t }
        while head < samples.count, t - samples[head].t > c.trendWindowSeconds { head += 1 }
        if fastestAt < samples[head].t {
            fastest = -.infinity
            for i in head..<samples.count where samples[i].speed >= fastest {
                fastest = samples[i].speed
                fastestAt = samples[i].t
            }
        }
        if head > 64, head * 2 > samples.count {
            samples.removeFirst(head)
            head = 0
        }
        let n = samples.count - head
        let old = trend
        windowReady = n >= 3 && t - samples[head].t >= c.trendMinSpanSeconds
        lastClosing = closing
        significance = c.trendSignificance
        if let closing { return fromVelocity(closing, t: t, distance: d, moving: moving, config: c) }
        guard windowReady else { return false }
        // A direction needs a rate significant against the scatter, faster than standing still,
        // and a fitted change larger than a still receiver's wander.
        // The range rate can never exceed the ground speed: when the receiver reports speeds, a
        // rate far beyond them is a position jump (a cold start converging, multipath), not travel.
        // Hysteresis on the still speed: leaving `steady` takes twice the speed that entering it
        // allows, so a slow sideways drive does not toggle between steady and hotter.
        let movingSpeed = trend == .steady ? 2 * c.trendSteadySpeed : c.trendSteadySpeed
        func direction(_ f: Fit, strictness: Double = 1) -> Trend? {
            guard abs(f.slope) > strictness * c.trendSignificance * f.slopeError,
                  abs(f.slope) > movingSpeed,
                  abs(f.slope) * f.span > c.trendAccuracyShare * (accuracy ?? 0)
            else { return nil }
            guard fastest < 0 || abs(f.slope) <= 1.5 * fastest + 1 else { return nil }
            return f.slope < 0 ? .hotter : .colder
        }
        // The last few seconds alone show a stop, or a turn after passing the target, before
        // the whole window (which straddles the turn) can; the whole window catches a slow
        // approach that a few seconds cannot resolve. A few samples are judged more strictly:
        // they are checked on every fix, and chance runs of jitter are common among many checks.
        let recent = recentFit(t: t, config: c)
        var candidate: Trend? = nil
        if let recent, abs(recent.slope) <= c.trendSteadySpeed {
            candidate = .steady
        } else if let d = recent.flatMap({ direction($0, strictness: 1.5) }) {
            candidate = d
        } else if let full = fit(from: head, share: .full) {
            candidate = direction(full)
        } else {
            return false
        }

        let cadence = c.trendCadenceFraction * min(max(d, c.trendCadenceMin), c.trendCadenceMax)
        return apply(candidate, t: t, distance: d, moving: moving, cadence: cadence, config: c, old: old)
    }

    /// The least-squares fit over the last `trendStillWindowSeconds`, when they hold enough.
    private func recentFit(t: Double, config c: EngineConfig) -> Fit? {
        var r = samples.count - 1
        while r > head, t - samples[r - 1].t <= c.trendStillWindowSeconds { r -= 1 }
        guard samples.count - r >= 3, t - samples[r].t >= c.trendStillWindowSeconds / 2 else { return nil }
        return fit(from: r, share: .recent)
    }

    /// The trend from a rate of approach worked out from velocities.
    ///
    /// A direction needs the rate beyond `trendSignificance` of its error, beyond the still
    /// speed (twice that to leave `steady`, as for the window) and beyond a tenth of the speed
    /// (`ClosingRate.directionShare`), and when newly called, either a
    /// travelling velocity in it or a receiver seen to move. A reversal needs nothing more: the
    /// velocity tells it on the first fix past the closest approach, where the window's
    /// cadence would wait for the distance to grow by a fifth. `steady` when the rate is known
    /// to lie within the still speed (at once when the receivers stand, after the usual hold
    /// when they move across); otherwise (inconclusive) the recent window may still show
    /// stillness, but no direction is taken from it.
    private mutating func fromVelocity(_ v: ClosingRate, t: Double, distance d: Double, moving: Bool,
                                       config c: EngineConfig) -> Bool {
        let old = trend
        let movingSpeed = trend == .steady ? 2 * c.trendSteadySpeed : c.trendSteadySpeed
        let size = abs(v.rate)
        var candidate: Trend? = nil
        if size > movingSpeed, v.isShare(ClosingRate.directionShare), v.exceeds(sigmas: c.trendSignificance) {
            candidate = v.rate > 0 ? .hotter : .colder
        } else if windowReady, size + v.sigma <= c.trendSteadySpeed {
            candidate = .steady
        } else if windowReady, let recent = recentFit(t: t, config: c), abs(recent.slope) <= c.trendSteadySpeed {
            candidate = .steady
        }
        if candidate == trend, trend == .hotter || trend == .colder {
            // The common case: the velocity goes on saying what the trend says.
            stillSince = nil
            extreme = trend == .hotter ? min(extreme, d) : max(extreme, d)
            return false
        }
        if let cand = candidate, cand != .steady, trend == .hotter || trend == .colder, cand != trend {
            // A reversal told by the velocity.
            trend = cand
            extreme = d
            stillSince = nil
        } else if candidate == .steady, !v.travelling, trend == .hotter || trend == .colder {
            // Standing by the velocity: its speeds averaged over seconds say so already, so the
            // hold that keeps a pause of one fix from counting is not waited for again.
            trend = .steady
            stillSince = nil
        } else {
            // Inconclusive is not still: the hold towards steady starts again.
            if candidate == nil { stillSince = nil }
            _ = apply(candidate, t: t, distance: d, moving: moving || v.travelling, cadence: .infinity, config: c, old: old)
        }
        if trend == .hotter { extreme = min(extreme, d) } else if trend == .colder { extreme = max(extreme, d) }
        return trend != old
    }

    /// Moves the trend towards `candidate` by the rules in the type's notes.
    private mutating func apply(_ candidate: Trend?, t: Double, distance d: Double, moving: Bool, cadence: Double,
                                config c: EngineConfig, old: Trend) -> Bool {
        switch (trend, candidate) {
        case (_, nil):
            break
        case (.unknown, let cand?), (.steady, let cand?):
            if cand != trend, cand == .steady || moving {
                trend = cand
                extreme = d
            }
            stillSince = nil
        case (.hotter, .hotter?), (.colder, .colder?):
            stillSince = nil
        case (.hotter, .colder?), (.colder, .hotter?):
            stillSince = nil
            // Only reverse once the distance has come back by the cadence from its extreme.
            if moving, abs(d - extreme) >= cadence {
                trend = candidate!
                extreme = d
            }
        case (.hotter, .steady?), (.colder, .steady?):
            if let s = stillSince {
                if t - s >= c.trendSteadyHoldSeconds {
                    trend = .steady
                    stillSince = nil
                }
            } else {
                stillSince = t
            }
        default:
            break
        }
        // Track the running extreme in the direction of travel.
        if trend == .hotter { extreme = min(extreme, d) } else if trend == .colder { extreme = max(extreme, d) }
        return trend != old
    }

    private struct Fit {
        var slope: Double
        var slopeError: Double
        var span: Double
    }

    /// Which of the precomputed weights a fit uses.
    @usableFromInline enum FitShare: Double {
        case full = 0.1
        case recent = 0.35
    }

    /// Weighted least-squares line through samples[from...], each sample weighted by its own
    /// stated accuracy, so a receiver still converging after a cold start (errors of a
    /// kilometre) cannot outvote the good fixes that follow.
    ///
    /// Each sample's 1-sigma is a share of its 95 % radius (the radius is often pessimistic, so
    /// the share is small); the slope's error is the larger of what those sigmas predict and
    /// what the residuals show. Short windows get a larger share (0.35 ≈ the per-axis sigma of
    /// an honest 95 % radius): a handful of residuals says little about the noise.
    private func fit(from start: Int, share: FitShare) -> Fit? {
        samples.withUnsafeBufferPointer { s in
            let n = s.count - start
            let t0 = s[start].t
            let recent = share == .recent
            var sw = 0.0, st = 0.0, sd = 0.0
            for i in start..<s.count {
                let w = recent ? s[i].wRecent : s[i].wFull
                sw += w; st += w * (s[i].t - t0); sd += w * s[i].d
            }
            let mt = st / sw, md = sd / sw
            var sxx = 0.0, sxy = 0.0, syy = 0.0
            for i in start..<s.count {
                let w = recent ? s[i].wRecent : s[i].wFull
                let x = s[i].t - t0 - mt, y = s[i].d - md
                sxx += w * x * x; sxy += w * x * y; syy += w * y * y
            }
            guard sxx > 0 else { return nil }
            let slope = sxy / sxx
            let chi2 = max(0, syy - slope * sxy) / Double(max(n - 2, 1))
            return Fit(slope: slope, slopeError: (max(chi2, 1) / sxx).squareRoot(),
                       span: s[s.count - 1].t - t0)
        }
    }

    @usableFromInline
    static func weight(_ accuracy: Double?, _ share: Double) -> Double {
        // Unknown accuracy counts as a middling 10 m; no sigma below 10 cm.
        let sigma = max(share * (accuracy ?? 10), 0.1)
        return 1 / (sigma * sigma)
    }

    /// Both sides are at rest and nothing new will come (a friend silent after a stop while
    /// this car stands): `steady`, and the window forgotten, so the approach that ended is not
    /// taken for a direction again. True when the trend changed.
    public mutating func settle() -> Bool {
        guard trend != .steady else { return false }
        reset()
        trend = .steady
        return true
    }

    /// Marks the trend unknown (stale or no fix) and forgets the window. True when it changed.
    public mutating func invalidate() -> Bool {
        let changed = trend != .unknown
        reset()
        return changed
    }
}
