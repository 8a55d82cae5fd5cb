import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Real motion must still show promptly: how many seconds after the truth changes the engine
/// says so, on drives with known truth.
@Suite(.offCooperativePool) struct MotionLatencyTests {
    let origin = Coordinate(latitude: -33.8688, longitude: 151.2093)
    let t0 = 1_700_000_000.0

    func firstTrend(_ events: [Event], _ trend: Trend, after: Double) -> Double? {
        events.proximities.first { $0.trend == trend && $0.time.timeIntervalSince1970 > after }
            .map { $0.time.timeIntervalSince1970 - after }
    }

    /// Seconds from start-up to the first `hotter` on a 15 m/s approach, and from the closest
    /// approach to the first `colder`.
    func pass() -> (hotter: Double?, colder: Double?) {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 3000))
        track.drive(bearing: 90, distance: 6000, speed: 15)
        let target = Target(id: "t", name: "T", coordinate: Geodesic.direct(from: origin, bearing: 0, distance: 30))
        let events = run(track.fixes, [target])
        return (firstTrend(events, .hotter, after: t0), firstTrend(events, .colder, after: t0 + 200))
    }

    /// The pass as a GPX writer that puts speed 0 on every point records it. The trend trusts
    /// the reported speed (a range rate above it is a jump, not travel), so no hotter/colder;
    /// but positions that go further than any error wanders outweigh that speed for motion, so
    /// the tiers and the arrival come as on the true pass.
    @Test func aTrackWhoseSpeedIsAlwaysZeroStillChangesTierAndArrives() {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 3000))
        track.drive(bearing: 90, distance: 6000, speed: 15)
        let zeroed = track.fixes.map { f -> Fix in
            var z = f
            z.speed = 0
            return z
        }
        let target = Target(id: "t", name: "T", coordinate: Geodesic.direct(from: origin, bearing: 0, distance: 30))
        func tiers(_ events: [Event]) -> [String] {
            events.proximities.map { "\($0.tier)" }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        }
        // Motion itself: declared within a few fixes of leaving the 100 m the speed could veto.
        var motion = MotionDetector()
        var movingAt: Double?
        for f in zeroed where movingAt == nil {
            motion.update(f.coordinate!, t: f.time.timeIntervalSince1970, accuracy: f.horizontalError, speed: f.speed,
                          config: EngineConfig())
            if motion.isMoving { movingAt = f.time.timeIntervalSince1970 - t0 }
        }
        #expect(movingAt.map { $0 <= 15 } == true, "moving after \(String(describing: movingAt)) s at 15 m/s")
        let truth = run(track.fixes, [target]), zero = run(zeroed, [target])
        print("speed 0 pass: tiers \(tiers(zero)), truth \(tiers(truth)); arrivals \(zero.arrivals.count)")
        #expect(tiers(zero) == tiers(truth))
        #expect(zero.arrivals.count == 1 && truth.arrivals.count == 1)
    }

    /// Stop at a red light for 60 s: seconds to `steady` after stopping, to `hotter` after moving on.
    func redLight() -> (steady: Double?, hotter: Double?) {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 3000))
        track.drive(bearing: 90, distance: 1500, speed: 15)
        let stopStart = track.time
        track.wait(seconds: 60, jitter: 1)
        let stopEnd = track.time
        track.drive(bearing: 90, distance: 1200, speed: 15)
        let events = run(track.fixes, [Target(id: "t", name: "T", coordinate: origin)])
        return (firstTrend(events, .steady, after: stopStart), firstTrend(events, .hotter, after: stopEnd))
    }

    /// A walker (1.2 m/s, 2 m jitter, 5 m stated error) standing 60 s, then walking 300 m
    /// straight at the target, standing 60 s, then walking away: seconds to `hotter` after
    /// setting off, and to `colder` after turning back.
    func slowWalk(speedReported: Bool) -> (hotter: Double?, colder: Double?) {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 0, distance: 500), eph: 5, seed: 9)
        track.wait(seconds: 60, jitter: 2)
        let off = track.time
        track.drive(bearing: 180, distance: 300, speed: 1.2, jitter: 2)
        track.wait(seconds: 60, jitter: 2)
        let back = track.time
        track.drive(bearing: 0, distance: 300, speed: 1.2, jitter: 2)
        let fixes = speedReported ? track.fixes : track.fixes.map { f in var f = f; f.speed = nil; return f }
        let events = run(fixes, [Target(id: "t", name: "T", coordinate: origin)])
        return (firstTrend(events, .hotter, after: off), firstTrend(events, .colder, after: back))
    }

    /// Seconds after the true crossing that each tier change of a noise-free 15 m/s pass at 30 m
    /// is announced, and how many changes there are.
    func tierLag() -> (changes: Int, worst: Double) {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 12000))
        track.drive(bearing: 90, distance: 24000, speed: 15)
        let target = Target(id: "t", name: "T", coordinate: Geodesic.direct(from: origin, bearing: 0, distance: 30))
        let events = run(track.fixes, [target])
        let prox = events.proximities
        let ladder = TierLadder.default
        var worst = 0.0, changes = 0
        for (a, b) in zip(prox, prox.dropFirst()) where a.tier != b.tier {
            changes += 1
            // The first fix (at or before b) whose raw tier is b's tier.
            let raw = track.fixes.last { f in
                f.time <= b.time && ladder.tiers[ladder.index(for: Geodesic.inverse(f.coordinate!, target.coordinate).distance)].level != b.tier
            }
            if let r = raw { worst = max(worst, b.time.timeIntervalSince(r.time) - 1) }
        }
        return (changes, worst)
    }

    @Test func latencies() {
        let p = pass(), r = redLight(), w = slowWalk(speedReported: true), n = slowWalk(speedReported: false)
        let tiers = tierLag()
        print("latency: pass hotter \(p.hotter.map { "\($0)" } ?? "-") s, colder \(p.colder.map { "\($0)" } ?? "-") s after closest approach")
        print("latency: red light steady \(r.steady.map { "\($0)" } ?? "-") s, hotter again \(r.hotter.map { "\($0)" } ?? "-") s")
        print("latency: slow walk hotter \(w.hotter.map { "\($0)" } ?? "-") s, colder \(w.colder.map { "\($0)" } ?? "-") s")
        print("latency: slow walk, no speed: hotter \(n.hotter.map { "\($0)" } ?? "-") s, colder \(n.colder.map { "\($0)" } ?? "-") s")
        print("latency: tiers on a 24 km pass: \(tiers.changes) changes, worst \(tiers.worst) s after the true crossing")
        #expect(p.hotter != nil && r.steady != nil && w.hotter != nil)
    }
}
