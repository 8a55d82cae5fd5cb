#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Whether the velocity a receiver reports (Doppler speed and course) is borne out by its own
/// positions, fix by fix; the credible velocity is a ``GroundVelocity``.
///
/// A reported velocity is believed as travelling only when:
/// - the speed is well above its noise (`travellingSigmas` of the learned or default speed
///   error, and at least `minimumTravellingSpeed`) and a course comes with it, on this fix and
///   on the previous one, at most `maxStepSeconds` before;
/// - the two velocities are one vehicle's (their difference within their noise and what
///   `maxAcceleration` allows in the time between);
/// - the positions moved as the velocities say: over the shortest recent baseline (up to
///   `maxBaselineSeconds`) on which the integrated velocities predict a move of at least
///   `baselineSigmas` of the two positions' error, the actual move agrees with the prediction
///   within `consistencySigmas` of that error, plus what the changes of velocity inside the
///   baseline allow (the trapezoid rule is exact for steady acceleration), plus
///   `consistencyShare` of the prediction.
///
/// So a standing receiver is never travelling, whatever it reports: its positions do not move
/// by several of their sigmas in the direction it claims, and when they jump (a spike, a wander)
/// the velocity on either side does not follow. A receiver that works its speed out from its
/// own positions follows a spike for one fix at most, and the previous fix's velocity rules
/// that out. Speeds in the wrong unit fail the consistency test.
///
/// Once believed, a velocity that goes on as one vehicle's (travelling, consecutive, within
/// the acceleration limit) stays believed on a looser position test (`keptConsistencySigmas`,
/// on the longest baseline only: that it moves is settled, its scale is what is left to
/// check), so one fix's scatter does not drop a moving car back to the window.
///
/// It is believed as standing when the speeds of the last two seconds average below the still
/// speed (or twice the speed's noise) and the positions stayed within their error.
struct VelocityJudge: Sendable {
    private struct Entry {
        var t = 0.0, x = 0.0, y = 0.0
        // The integrated reported velocity and the allowance for changes of velocity, from the
        // first entry up to this one.
        var qx = 0.0, qy = 0.0, allowance = 0.0
        // The position's per-axis variance.
        var sigma2 = 0.0
        // The reported speed (-1: none reported).
        var speed = -1.0
    }

    private static let capacity = 32
    private static let mask = capacity - 1
    private var ring = [Entry](repeating: Entry(), count: VelocityJudge.capacity)
    private var newest = 0
    private var count = 0
    // How many entries back the oldest one within `maxBaselineSeconds` of the newest is.
    private var span = 0
    // The previous fix's reported velocity; speed -1 when it reported none.
    private var prevT = 0.0, prevVX = 0.0, prevVY = 0.0, prevSpeed = -1.0
    private var prevCourse = false
    // The previous fix's velocity was believed as travelling.
    private var believed = false
    private var qx = 0.0, qy = 0.0, allowance = 0.0
    // Reported speeds while the receiver is known to stand: their mean square.
    private var speedVariance = 0.0, speedCount = 0.0

    /// The receiver's speed error (1 sigma): what it reports while standing, at least the
    /// default and at most `maxLearnedSpeedSigma`.
    var speedSigma: Double {
        speedCount >= 10
            ? min(Self.maxLearnedSpeedSigma, max(GroundVelocity.speedNoise, speedVariance.squareRoot()))
            : GroundVelocity.speedNoise
    }
    /// Old receivers report about 1 m/s while standing; a larger "noise" is a receiver setting
    /// off before the motion detector has seen it leave.
    static let maxLearnedSpeedSigma = 1.0

    /// Forgets the recent fixes (a gap, a new frame) but not the speed error learned.
    mutating func reset() {
        count = 0
        span = 0
        prevSpeed = -1
        prevCourse = false
        believed = false
        qx = 0; qy = 0; allowance = 0
    }

    /// A speed reported while the receiver stood (the motion detector knows it did).
    mutating func learnStanding(speed: Double?) {
        guard let s = speed, s < 2 * Self.maxLearnedSpeedSigma else { return }
        speedCount = min(speedCount + 1, 120)
        speedVariance += (s * s - speedVariance) / speedCount
    }

    /// Adds a fix at (x, y) in the detector's flat frame with per-axis position error `sigma`;
    /// returns its credible velocity, nil when there is none.
    @inline(__always)
    mutating func update(x: Double, y: Double, t: Double, sigma: Double, speed: Double?, course: Double?,
                         config c: EngineConfig) -> GroundVelocity? {
        let s = speed ?? -1
        let hasCourse = course != nil && s >= 0
        var vx = 0.0, vy = 0.0, sn = 0.0, cs = 0.0
        if let deg = course, s > 0 {
            (sn, cs) = Self.sinCos(degrees: deg)
            vx = s * sn
            vy = s * cs
        }
        let havePrev = count > 0
        let dt = t - prevT
        if havePrev {
            qx += (prevVX + vx) * 0.5 * dt
            qy += (prevVY + vy) * 0.5 * dt
            // |Δv| from above without a square root (the larger component plus 0.4142 of the
            // smaller: at most 8 % over); a tolerance may be that much looser.
            let ax = abs(vx - prevVX), ay = abs(vy - prevVY)
            let change = max(ax, ay) + 0.4142 * min(ax, ay)
            // A fix with a speed but no course moved somewhere within that speed.
            let unknown = (prevCourse ? 0 : max(prevSpeed, 0)) + (hasCourse ? 0 : max(s, 0))
            allowance += (change + unknown) * 0.5 * dt
        }
        newest = (newest + 1) & Self.mask
        ring[newest] = Entry(t: t, x: x, y: y, qx: qx, qy: qy, allowance: allowance, sigma2: sigma * sigma,
                             speed: s)
        count = min(count + 1, Self.capacity)
        span = min(span + 1, count - 1)
        while span > 0, t - ring[(newest - span) & Self.mask].t > GroundVelocity.maxBaselineSeconds { span -= 1 }
        let (pvx, pvy, pSpeed, pCourse, wasBelieved) = (prevVX, prevVY, prevSpeed, prevCourse, believed)
        prevT = t; prevVX = vx; prevVY = vy; prevSpeed = s; prevCourse = hasCourse
        believed = false
        guard havePrev, s >= 0, pSpeed >= 0 else { return nil }

        let sv = speedSigma
        let travelling = max(GroundVelocity.minimumTravellingSpeed, GroundVelocity.travellingSigmas * sv)
        if hasCourse, pCourse, s >= travelling, pSpeed >= travelling, dt <= GroundVelocity.maxStepSeconds {
            let across2 = sv * sv + s * s * Self.courseSigma2
            let dvx = vx - pvx, dvy = vy - pvy
            // Within 3 sigma of the difference's noise (per axis, at most the across-course
            // variance; the sum of two fixes'), plus what the acceleration allows.
            let noise2 = GroundVelocity.consistencySigmas * GroundVelocity.consistencySigmas * 2 * across2
            let dv2 = dvx * dvx + dvy * dvy
            let reach = GroundVelocity.maxAcceleration * dt
            // (|dv| <= sqrt(noise2) + reach), without the square roots where one side settles it.
            guard dv2 <= noise2 + reach * reach || dv2.squareRoot() <= noise2.squareRoot() + reach else { return nil }
            // Believed once, a velocity that goes on as one vehicle's stays believed on a looser
            // test of the positions: one fix's scatter (a 3-sigma residual comes once in a
            // hundred checks) does not drop a moving car back to the window.
            guard borneOut(kept: wasBelieved) else { return nil }
            believed = true
            // Averaged with the previous fix's velocity (travelling, with a course, as checked
            // above) when it is at most `averageSeconds` older and agrees within `averageSigmas`
            // of their noise: a straight road holds its course, and averaging halves the
            // course's noise at 1 Hz; a velocity that disagrees (a turn, braking) is not averaged
            // in, so the average lags a turn by less than the noise. Doppler errors decorrelate
            // over about a second, so the variance shrinks by one plus the seconds between the
            // two (at most 2), not by 2.
            let a2 = Self.averageSigmas * Self.averageSigmas * 2 * across2
            if dt <= Self.averageSeconds + 1e-6, dv2 <= a2 {
                let shrink = dt >= 1 ? 0.5 : 1 / (1 + dt)
                return GroundVelocity(east: (vx + pvx) * 0.5, north: (vy + pvy) * 0.5,
                                      alongVariance: sv * sv * shrink, acrossVariance: across2 * shrink,
                                      positionSigma: sigma, time: t, course: (sn, cs))
            }
            return GroundVelocity(east: vx, north: vy, alongVariance: sv * sv, acrossVariance: across2,
                                  positionSigma: sigma, time: t, course: (sn, cs))
        }
        if s < travelling {
            // Standing: the speeds of the last few seconds (at least two fixes) average below the
            // still speed (or what the speed's own noise averages to), and the positions stayed
            // within their error and what those speeds allow. An average, so that one fix of a
            // standing receiver whose noise reaches past the still speed does not end it.
            var k = 1, sum = s
            while k < count {
                let e = ring[(newest - k) & Self.mask]
                guard e.speed >= 0 else { return nil }
                sum += e.speed
                if k + 1 >= count || t - ring[(newest - k - 1) & Self.mask].t > Self.standingSeconds { break }
                k += 1
            }
            let mean = sum / Double(k + 1)
            guard mean < max(c.trendSteadySpeed, Self.standingSpeedSigmas * sv) else { return nil }
            let e = ring[(newest - k) & Self.mask]
            let dx = x - e.x, dy = y - e.y
            let reach = GroundVelocity.consistencySigmas * (sigma * sigma + e.sigma2).squareRoot()
                + mean * (t - e.t)
            guard dx * dx + dy * dy <= reach * reach else { return nil }
            let sd = max(sv, mean)
            return GroundVelocity(east: 0, north: 0, alongVariance: sd * sd, acrossVariance: sd * sd, positionSigma: sigma, time: t)
        }
        return nil
    }

    /// A standing receiver's speeds average about 1.25 σ of the speed's noise (a Rayleigh
    /// distribution's mean): below twice that, it stands.
    private static let standingSpeedSigmas = 2.0

    /// How much older the previous velocity may be to be averaged with the newest, and how far
    /// (in sigmas of their noise, per axis) it may differ from it.
    private static let averageSeconds = 1.0
    private static let averageSigmas = 2.0

    /// sin and cos of a course in degrees, reduced to ±45° as `sincosd` does, each from a short
    /// Taylor series (to x¹¹ and x¹⁰: within 1e-10 at 45°, where a course reported to 0.01° is
    /// known to 2e-4), which costs a fraction of a library call; the two series run side by side.
    @inline(__always)
    static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        var r = abs(x) <= 360 ? x : x.truncatingRemainder(dividingBy: 360)
        guard r.isFinite else { return (.nan, .nan) }
        // The nearest quadrant without a library call: r / 90 lies in [-4, 4].
        let quadrant = Int(r / 90 + 4.5) - 4
        r -= 90 * Double(quadrant)
        let a = r * (Double.pi / 180), a2 = a * a
        let s = a * (1 + a2 * (-1.0 / 6 + a2 * (1.0 / 120 + a2 * (-1.0 / 5040 + a2 * (1.0 / 362_880 - a2 / 39_916_800)))))
        let c = 1 + a2 * (-0.5 + a2 * (1.0 / 24 + a2 * (-1.0 / 720 + a2 * (1.0 / 40320 - a2 / 3_628_800))))
        switch quadrant & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// Seconds of positions a standing claim is checked against.
    private static let standingSeconds = 2.0
    // (courseNoiseDegrees in radians, squared; a plain product, so it is folded at compile time.)
    private static let courseSigma2 = GroundVelocity.courseNoiseDegrees * GroundVelocity.courseNoiseDegrees
        * (Double.pi / 180) * (Double.pi / 180)

    /// Whether the newest position moved from earlier ones as the integrated velocities say:
    /// on the shortest baseline long enough to tell that it moved at all, and on the longest
    /// one (up to `maxBaselineSeconds`), where a wrong scale shows best
    /// (see the type's notes). A velocity believed on the previous fix is kept on the longest
    /// alone, at the looser `keptConsistencySigmas`.
    @inline(__always)
    private func borneOut(kept: Bool) -> Bool {
        let n = ring[newest]
        let b2 = GroundVelocity.baselineSigmas * GroundVelocity.baselineSigmas
        // Believed on the previous fix and still travelling as one vehicle: it moved, so only
        // the scale is in question, and the longest baseline shows that best.
        if kept, span > 0 { return agrees(with: span, sigmas: Self.keptConsistencySigmas) }
        var k = 1, shortest = 0
        while k <= span {
            let e = ring[(newest - k) & Self.mask]
            let px = n.qx - e.qx, py = n.qy - e.qy
            if px * px + py * py >= b2 * (n.sigma2 + e.sigma2) { shortest = k; break }
            k += 1
        }
        guard shortest > 0 else { return false }
        let sigmas = GroundVelocity.consistencySigmas
        return agrees(with: shortest, sigmas: sigmas) && (span == shortest || agrees(with: span, sigmas: sigmas))
    }

    /// The consistency test's sigmas for a velocity believed on the previous fix.
    private static let keptConsistencySigmas = 5.0

    /// Whether the move from the entry `k` fixes back to the newest agrees with the integrated
    /// velocities.
    private func agrees(with k: Int, sigmas: Double) -> Bool {
        let n = ring[newest], e = ring[(newest - k) & Self.mask]
        let px = n.qx - e.qx, py = n.qy - e.qy
        let sd2 = n.sigma2 + e.sigma2
        let dx = n.x - e.x - px, dy = n.y - e.y - py
        let r2 = dx * dx + dy * dy
        // Within the positions' term alone: no need for the rest (or a square root).
        if r2 <= sigmas * sigmas * sd2 { return true }
        let tol = sigmas * sd2.squareRoot() + (n.allowance - e.allowance)
            + GroundVelocity.consistencyShare * (px * px + py * py).squareRoot()
        return r2 <= tol * tol
    }
}
