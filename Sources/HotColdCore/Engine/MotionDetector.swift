/// Whether the receiver itself is moving, judged from its fixes' consistency rather than from
/// any one fix or the reported speed alone.
///
/// A receiver that stands still scatters its fixes around one place: white noise fix by fix,
/// or a slow drift over tens of seconds (time-correlated error), now and then a wild fix. None
/// of that takes it far from the mean of its still fixes. So stillness keeps an *anchor* (the
/// mean of the fixes since it stood still) and motion is declared only when consecutive
/// fixes (`movingConfirmFixes`) lie beyond `stillRadius` of it on the same side, a distance a still receiver does not
/// wander to. Back to still needs the fixes to stay within that radius of a new anchor for as
/// long as it would take to leave it at the still speed, so a slow walk is not called still.
///
/// The engine gates what needs motion on it: a new `hotter`/`colder` needs `isMoving`, and
/// while not moving tiers and arrival use the wider still margin (`stillSlack`), because fixes
/// of a receiver that does not move share their error and dwell proves nothing about it.
public struct MotionDetector: Sendable {
    /// The receiver has been seen to move and has not settled since.
    public private(set) var isMoving = false
    /// 1-sigma per-axis error of the last fix (metres), from its stated 95 % error.
    public private(set) var sigma: Double = MotionDetector.unknownSigma
    /// Whether the last fix's step continues the previous steps (direction, length and the
    /// reported speed), i.e. it is not a lone jump.
    public private(set) var stepIsCoherent = false
    /// Whether the receiver reported a travelling speed (at least twice the still speed) on
    /// this fix and the previous one, and this step goes on the way the previous one went at a
    /// length the speed allows. Doppler speed does not drift with the position error, so this
    /// is motion a standing receiver does not show, known from the first steps after a start
    /// or a gap, before the anchor test (`isMoving`) has seen enough fixes.
    public private(set) var followsReportedSpeed = false
    /// The velocity the receiver reported on this fix when its positions bear it out
    /// (``VelocityJudge``): travelling, or standing; nil when there is none to believe.
    public private(set) var velocity: GroundVelocity?

    /// Per-axis sigma assumed when a fix states no error and none has been learned yet.
    static let unknownSigma = 3.0
    /// Largest sigma learned from the scatter (a poor receiver's; more would blunt motion).
    static let maxLearnedSigma = 25.0
    /// Fixes the learned scatter averages over, at most (older ones fade).
    static let learnedSpan = 120.0

    /// For fixes that state no error: the per-axis scatter seen while the receiver's own
    /// Doppler speed said it stood still (so the wander is all error), never below
    /// `unknownSigma`.
    private var learnedSigma: Double {
        min(MotionDetector.maxLearnedSigma, max(MotionDetector.unknownSigma, learnedVariance.squareRoot()))
    }
    private var learnedVariance = 0.0, learnedCount = 0.0

    /// A 95 % horizontal error (metres) to judge fixes that state none by, once the scatter
    /// has been learned from enough standing fixes (`learnedSigma`); nil before that.
    var learnedError: Double? {
        learnedCount >= MotionDetector.learnedMinimum ? 2 * learnedSigma : nil
    }
    /// Standing fixes needed before the learned scatter stands in for a stated error.
    static let learnedMinimum = 10.0
    /// How far (metres, at least) positions may wander from the anchor while the Doppler speed
    /// says standing before they are believed over it.
    static let dopplerVetoReach = 100.0

    private var frame: LocalFrame?
    // Anchor: sum of the still fixes' positions in `frame` and their count, and when it began.
    private var sumX = 0.0, sumY = 0.0, count = 0.0
    private var anchorSince = 0.0
    // Consecutive fixes beyond the still radius, and the previous one's offset from the anchor.
    private var beyond = 0
    private var beyondX = 0.0, beyondY = 0.0
    // Previous fix: position, time and step from the one before.
    private var prevX = 0.0, prevY = 0.0, prevT = 0.0, stepX = 0.0, stepY = 0.0
    // The previous fix's reported speed (m/s), -1 when it reported none.
    private var prevSpeed = -1.0
    private var havePrev = false, haveStep = false
    private var judge = VelocityJudge()

    public init() {}

    /// Forgets everything (after a gap, a no-fix stretch or an outlier reset) but the scatter
    /// learned for this receiver.
    public mutating func reset() {
        let (v, n) = (learnedVariance, learnedCount)
        var j = judge
        j.reset()
        self = MotionDetector()
        (learnedVariance, learnedCount) = (v, n)
        judge = j
    }

    /// How far (metres) a still receiver with this sigma can be expected to wander.
    static func stillRadius(sigma: Double, config c: EngineConfig) -> Double {
        max(c.stillRadiusMin, c.stillSigmas * sigma)
    }

    /// Slack for tier and arrival decisions while not moving: the still radius.
    func stillSlack(config c: EngineConfig) -> Double {
        isMoving ? 0 : MotionDetector.stillRadius(sigma: sigma, config: c)
    }

    /// Adds a trusted fix at time `t`.
    public mutating func update(_ here: Coordinate, t: Double, accuracy: Double?, speed: Double?, course: Double? = nil,
                                config c: EngineConfig) {
        sigma = accuracy.map { max($0 / 2, 0.5) } ?? learnedSigma
        var p = frame?.project(here) ?? (x: .infinity, y: 0)
        if !(abs(p.x) <= 20_000 && abs(p.y) <= 20_000) {
            // Re-centre the flat frame every 20 km; the history starts again with it.
            frame = LocalFrame(origin: here)
            p = (0, 0)
            havePrev = false
            haveStep = false
            count = 0
            judge.reset()
        }
        velocity = judge.update(x: p.x, y: p.y, t: t, sigma: sigma, speed: speed, course: course, config: c)
        let radius = MotionDetector.stillRadius(sigma: sigma, config: c)

        // Step coherence: this step against the previous one, scaled to the time, and against
        // the reported speed.
        stepIsCoherent = false
        followsReportedSpeed = false
        if havePrev {
            let dt = t - prevT
            let sx = p.x - prevX, sy = p.y - prevY
            if dt > 0, haveStep {
                let px = stepX * dt, py = stepY * dt
                let predicted = (px * px + py * py).squareRoot()
                let rx = sx - px, ry = sy - py
                let noise = 4 * 1.4142 * sigma + 2
                let bound = noise + 0.25 * predicted
                var coherent = rx * rx + ry * ry <= bound * bound
                if coherent, let v = speed {
                    let step = (sx * sx + sy * sy).squareRoot()
                    coherent = abs(step - v * dt) <= noise + 0.25 * v * dt
                }
                stepIsCoherent = coherent && isMoving
                let travelling = max(1, 2 * c.trendSteadySpeed)
                if let v = speed, v >= travelling, prevSpeed >= travelling, sx * stepX + sy * stepY > 0 {
                    let step = (sx * sx + sy * sy).squareRoot()
                    followsReportedSpeed = abs(step - v * dt) <= noise + 0.25 * v * dt
                }
            }
            if dt > 0 {
                stepX = sx / dt
                stepY = sy / dt
                haveStep = true
            }
        }
        // Doppler speed does not share the position error: a receiver that reports standing
        // on this fix and the last is not moving, however far its positions wander.
        let dopplerStill = speed.map { $0 < c.trendSteadySpeed } == true && prevSpeed >= 0
            && prevSpeed < c.trendSteadySpeed
        prevX = p.x; prevY = p.y; prevT = t; havePrev = true
        prevSpeed = speed ?? -1

        guard count > 0 else {
            startAnchor(p.x, p.y, t)
            return
        }
        let ax = sumX / count, ay = sumY / count
        let ox = p.x - ax, oy = p.y - ay
        if accuracy == nil, dopplerStill, !isMoving, count >= 3 {
            learnedCount = min(learnedCount + 1, MotionDetector.learnedSpan)
            learnedVariance += ((ox * ox + oy * oy) / 2 - learnedVariance) / learnedCount
        }
        // The anchor of a short stand is itself uncertain (its fixes share their error).
        // (Squared, so the common case takes one division and no square root:
        // 1 + 1/stood = 1 + τ / (τ + seconds stood).)
        let tau = c.stillCorrelationSeconds
        let reach2 = radius * radius * (1 + tau / (tau + (t - anchorSince)))
        if ox * ox + oy * oy > reach2 {
            let reach = reach2.squareRoot()
            // Unless the positions have gone further than any error wanders: a file whose
            // writer put speed 0 on every point must still show motion, only later.
            let veto = max(4 * reach, MotionDetector.dopplerVetoReach)
            if dopplerStill && !isMoving && ox * ox + oy * oy <= veto * veto {
                beyond = 0
                return
            }
            // Beyond: motion once enough consecutive fixes were beyond on the same side.
            if beyond > 0, ox * beyondX + oy * beyondY > 0 {
                beyond += 1
            } else {
                beyond = 1
            }
            beyondX = ox; beyondY = oy
            if beyond >= c.movingConfirmFixes {
                isMoving = true
                startAnchor(p.x, p.y, t)
            } else if isMoving {
                startAnchor(p.x, p.y, t)
            }
            return
        }
        beyond = 0
        // Speeds reported while standing are the speed's error.
        if !isMoving, count >= 3 { judge.learnStanding(speed: speed) }
        sumX += p.x; sumY += p.y; count += 1
        // Settled: within the radius for as long as leaving it takes at the still speed.
        if isMoving, count >= 3, t - anchorSince >= max(c.trendStillWindowSeconds, radius / max(c.trendSteadySpeed, 0.1)) {
            isMoving = false
        }
    }

    private mutating func startAnchor(_ x: Double, _ y: Double, _ t: Double) {
        sumX = x; sumY = y; count = 1
        anchorSince = t
        beyond = 0
    }
}
