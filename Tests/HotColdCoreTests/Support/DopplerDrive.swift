import Foundation
import HotColdCore
import HotColdTestSupport

/// A vehicle's true path in a flat east/north frame (metres) around `origin`, built from legs
/// (cruise, brake, accelerate, turn, stop) and sampled every `step` seconds, with the truth
/// (position and velocity) known at every instant.
struct Route {
    struct State { var t, x, y, vx, vy: Double }

    let origin: Coordinate
    let start: Double
    private(set) var states: [State] = []
    private(set) var x: Double, y: Double
    /// Heading (degrees true) and speed (m/s) now.
    private(set) var heading: Double
    private(set) var speed = 0.0
    private(set) var t = 0.0
    static let step = 0.01

    init(origin: Coordinate, x: Double, y: Double, heading: Double, start: Double = 1_700_000_000) {
        self.origin = origin
        self.start = start
        self.x = x
        self.y = y
        self.heading = heading
        record()
    }

    private mutating func record() {
        let h = heading * .pi / 180
        states.append(State(t: t, x: x, y: y, vx: speed * sin(h), vy: speed * cos(h)))
    }

    private mutating func advance(_ seconds: Double, turnRate: Double = 0, acceleration: Double = 0) {
        var left = seconds
        while left > Route.step / 2 {
            let dt = min(Route.step, left)
            let v0 = speed
            speed = max(0, speed + acceleration * dt)
            heading += turnRate * dt
            let h = heading * .pi / 180, v = (v0 + speed) / 2
            x += v * sin(h) * dt
            y += v * cos(h) * dt
            t += dt
            left -= dt
            record()
        }
    }

    /// Drives on at `speed` (set at once) for `seconds`.
    mutating func cruise(seconds: Double, speed v: Double) {
        speed = v
        advance(seconds)
    }

    /// Drives on at `speed` (set at once) for `distance` metres.
    mutating func cruise(distance: Double, speed v: Double) {
        cruise(seconds: distance / v, speed: v)
    }

    /// Changes speed to `speed` at `rate` m/s² (braking or accelerating).
    mutating func accelerate(to v: Double, rate: Double) {
        let a = v > speed ? abs(rate) : -abs(rate)
        advance(abs(v - speed) / abs(rate), acceleration: a)
        speed = v
    }

    /// Turns by `degrees` (positive clockwise) at `rate` degrees a second, at the speed now.
    mutating func turn(_ degrees: Double, rate: Double) {
        advance(abs(degrees / rate), turnRate: degrees < 0 ? -abs(rate) : abs(rate))
    }

    /// Stands for `seconds`.
    mutating func stop(seconds: Double) {
        speed = 0
        advance(seconds)
    }

    /// Faces the other way at once (while standing: a U-turn after a stop).
    mutating func reverse() {
        heading += 180
    }

    /// The truth at `time` seconds after the start (the nearest sample).
    func state(at time: Double) -> State {
        let i = Int((time / Route.step).rounded())
        return states[min(max(i, 0), states.count - 1)]
    }

    var duration: Double { t }

    /// Metres east / north of the origin to a coordinate (the frame's own scale, exact enough
    /// over a few kilometres; distances are then measured on the ellipsoid from these).
    func coordinate(x: Double, y: Double) -> Coordinate {
        let frame = LocalFrame(origin: origin)
        let probe = frame.project(Coordinate(latitude: origin.latitude + 0.001, longitude: origin.longitude + 0.001))
        return Coordinate(latitude: origin.latitude + y * 0.001 / probe.y, longitude: origin.longitude + x * 0.001 / probe.x)
    }

    /// Seconds after the start of the closest approach to `target` (x, y in the frame) after
    /// `after` seconds, and that distance.
    func closestApproach(toX tx: Double = 0, y ty: Double = 0, after: Double = 0, before: Double = .infinity) -> (time: Double, distance: Double) {
        var best = (time: 0.0, distance: Double.infinity)
        for s in states where s.t >= after && s.t <= before {
            let d = ((s.x - tx) * (s.x - tx) + (s.y - ty) * (s.y - ty)).squareRoot()
            if d < best.distance { best = (s.t, d) }
        }
        return best
    }
}

/// How a receiver reports a route: fixes at `interval` from `phase`, white position noise of
/// `positionSigma` per axis stating a 95 % error of 2.5 σ, and a Doppler velocity with
/// `velocitySigma` per axis plus `courseSigma` degrees of course error. Standing, it reports
/// the noise's speed and, by `standingCourse`, no course, a random one or the last one held.
struct DopplerReceiver {
    enum StandingCourse { case none, random, held }
    var interval = 1.0
    var phase = 0.0
    var positionSigma = 2.0
    var velocitySigma = 0.2
    var courseSigma = 0.5
    var standingCourse = StandingCourse.random
    /// Report a course at all (a friend's phone over the socket sends none).
    var reportsCourse = true
    var reportsSpeed = true
    var seed: UInt64 = 1

    func fixes(_ route: Route) -> [Fix] {
        var rng = SeededRandom(seed: seed)
        var out: [Fix] = []
        var t = phase
        var held = 0.0
        while t <= route.duration + 1e-9 {
            let s = route.state(at: t)
            let x = s.x + positionSigma * rng.gaussian(), y = s.y + positionSigma * rng.gaussian()
            let vx = s.vx + velocitySigma * rng.gaussian(), vy = s.vy + velocitySigma * rng.gaussian()
            let trueSpeed = (s.vx * s.vx + s.vy * s.vy).squareRoot()
            let speed = (vx * vx + vy * vy).squareRoot()
            var course: Double? = atan2(vx, vy) * 180 / .pi + courseSigma * rng.gaussian()
            if trueSpeed < 0.3 {
                switch standingCourse {
                case .none: course = nil
                case .random: course = rng.uniform(0, 360)
                case .held: course = held
                }
            } else if let c = course {
                held = c
            }
            if let c = course { course = (c.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) }
            out.append(Fix(time: Date(timeIntervalSince1970: route.start + t), coordinate: route.coordinate(x: x, y: y),
                           mode: .threeD, eph: 2.5 * positionSigma, speed: reportsSpeed ? speed : nil,
                           track: reportsCourse ? course : nil))
            t += interval
        }
        return out
    }
}

/// The engine's state after every fix: trend, and the ETA it would give (from `poll`).
struct TrendTrace {
    struct Step { var t: Double; var trend: Trend; var eta: Double?; var distance: Double }
    var steps: [Step] = []
    var events: [Event] = []

    init(_ fixes: [Fix], _ target: Target, config: EngineConfig = .default) {
        var engine = ProximityEngine(targets: [target], mode: .hunt, config: config)
        for f in fixes {
            events += engine.process(f)
            if let p = engine.poll().proximities.first {
                steps.append(Step(t: f.time.timeIntervalSince1970, trend: p.trend, eta: p.eta, distance: p.distance))
            }
        }
    }

    /// Seconds after `time` (absolute) of the first step with `trend`, nil if none.
    func first(_ trend: Trend, after time: Double) -> Double? {
        steps.first { $0.t > time && $0.trend == trend }.map { $0.t - time }
    }
}
