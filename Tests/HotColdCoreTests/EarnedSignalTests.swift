import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Tiers and trends a receiver must earn, and fixes no vehicle could reach.
@Suite(.offCooperativePool) struct EarnedSignalTests {
    let origin = Coordinate(latitude: -33.8688, longitude: 151.2093)
    var target: Target { Target(id: "t", name: "T", coordinate: origin) }

    /// Standing `distance` m from the target (σ 3 m, 6 m stated error, speed 0) with one wild
    /// fix every 30 s, `wild` metres towards the target, claiming the same accuracy.
    func wildFixes(distance: Double, wild: Double, seconds: Double = 600, consecutive: Int = 1) -> [Fix] {
        let here = Geodesic.direct(from: origin, bearing: 30, distance: distance)
        var fixes = StillReceiver(position: here, sigma: 3, noise: .white, speedNoise: 0.1, seconds: seconds, seed: 77).fixes()
        var i = 25
        while i + consecutive <= fixes.count {
            for j in i..<(i + consecutive) {
                fixes[j].coordinate = Geodesic.direct(from: origin, bearing: 30, distance: distance - wild)
            }
            i += 30
        }
        return fixes
    }

    func tierChanges(_ events: [Event]) -> Int {
        let prox = events.proximities
        return zip(prox, prox.dropFirst()).filter { $0.tier != $1.tier }.count
    }

    @Test(arguments: [40.0, 45, 50])
    func oneWildFixAtABoundaryNeverChangesTheTier(wild: Double) {
        // 120 m out: 20 m outside the hot/burning boundary; the wild fixes land at 70–80 m.
        let events = run(wildFixes(distance: 120, wild: wild), [target])
        #expect(tierChanges(events) == 0, "\(events.proximities.map { "\($0.tier) \(Int($0.distance))" })")
        #expect(events.arrivals.isEmpty)
        #expect(!events.proximities.contains { $0.trend == .hotter || $0.trend == .colder })
    }

    @Test func aReceiverThatReallyMovesInChangesTier() {
        // Control: walking 50 m in towards the target and staying there is a change.
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 30, distance: 120), eph: 6, seed: 5)
        track.wait(seconds: 30, jitter: 2)
        track.drive(bearing: 210, distance: 50, speed: 1.2, jitter: 2)
        track.wait(seconds: 60, jitter: 2)
        let events = run(track.fixes, [target])
        #expect(events.proximities.last?.tier == 7)
        #expect(tierChanges(events) == 1)
    }

    @Test func aDrivingReceiverChangesTierOnTheCrossingFix() {
        // A 15 m/s drive straight at the target: each tier changes on the first fix past the
        // boundary's margin, with no confirming fix needed (the step continues the motion).
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 90, distance: 1500))
        track.drive(bearing: 270, distance: 1470, speed: 15)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let ladder = TierLadder.default
        for fix in track.fixes {
            let d = Geodesic.inverse(fix.coordinate!, origin).distance
            let before = engine.snapshot().first?.tier
            _ = engine.process(fix)
            let after = try! #require(engine.snapshot().first?.tier)
            if let before, before != after {
                // The boundary crossed, and the margin past it.
                let b = ladder.bounds[ladder.tiers.firstIndex(of: after)!]
                let margin = max(EngineConfig.default.tierMarginMin, EngineConfig.default.tierMarginFraction * b, 0.5 * 5)
                #expect(d < b - margin && d >= b - margin - 15, "changed at \(d) m for the \(b) m boundary")
            }
        }
        #expect(engine.snapshot().first?.tier.level == 7)
    }

    @Test func aFarJumpWithNoStatedAccuracyIsAnOutlier() {
        // A fix 6,000 km away one second after the last, with no accuracy at all.
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 2000), eph: nil)
        track.drive(bearing: 90, distance: 300, speed: 15)
        var far = track.fixes.last!
        far.time = far.time.addingTimeInterval(1)
        far.coordinate = Coordinate(latitude: -31.95, longitude: 115.86)   // Perth, from Sydney
        track.time += 1
        track.fixes.append(far)
        track.drive(bearing: 90, distance: 300, speed: 15)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let events = track.fixes.flatMap { engine.process($0) }
        #expect(engine.stats.outliers == 1)
        #expect(!events.proximities.contains { $0.distance > 3000 })
        #expect(!events.gpsStates.contains(.nofix))
    }

    @Test func aStatedHugeErrorCannotExcuseAnImpossibleJump() {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 2000), eph: 5)
        track.drive(bearing: 90, distance: 300, speed: 15)
        track.time += 1
        track.fixes.append(Fix(time: Date(timeIntervalSince1970: track.time),
                               coordinate: Geodesic.direct(from: origin, bearing: 0, distance: 600_000),
                               mode: .threeD, eph: 2_000_000))
        track.drive(bearing: 90, distance: 300, speed: 15)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let events = track.fixes.flatMap { engine.process($0) }
        #expect(engine.stats.outliers == 1)
        #expect(!events.proximities.contains { $0.distance > 3000 })
    }

    @Test func aGenuineRelocationIsBelievedAfterAShortConsistentRun() {
        // The receiver is moved 50 km (a replay joined to another, a ferry with no fixes) and
        // drives on from there: after a short run of fixes that agree, it is believed.
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 2000), eph: 5)
        track.drive(bearing: 90, distance: 300, speed: 15)
        track.position = Geodesic.direct(from: origin, bearing: 0, distance: 50_000)
        let jumpTime = track.time
        track.drive(bearing: 180, distance: 49_000, speed: 25)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let events = track.fixes.flatMap { engine.process($0) }
        let outliers = engine.stats.outliers
        #expect(outliers >= 1 && outliers < EngineConfig.default.outlierRunToReset)
        // Believed: distances from the new place, then in to within 1 km, hotter.
        let after = events.proximities.filter { $0.time.timeIntervalSince1970 > jumpTime }
        #expect(after.contains { $0.distance > 45_000 })
        #expect(after.contains { $0.trend == .hotter && $0.distance < 5_000 })
    }

    @Test func scatteredGarbageIsNeverBelieved() {
        // A receiver emitting fixes all over the continent for eight seconds: none agree with
        // another, so the run never completes and the real drive resumes.
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 270, distance: 2000), eph: 5)
        track.drive(bearing: 90, distance: 150, speed: 15)
        for k in 0..<8 {
            track.time += 1
            track.fixes.append(Fix(time: Date(timeIntervalSince1970: track.time),
                                   coordinate: Geodesic.direct(from: origin, bearing: Double(k) * 97, distance: 200_000 + Double(k) * 50_000),
                                   mode: .threeD, eph: 5))
        }
        track.position = Geodesic.direct(from: track.position, bearing: 90, distance: 120)
        track.drive(bearing: 90, distance: 300, speed: 15)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let events = track.fixes.flatMap { engine.process($0) }
        #expect(engine.stats.outliers == 8)
        #expect(!events.proximities.contains { $0.distance > 3000 })
        #expect(engine.stats.accepted == track.fixes.count - 8)
        #expect(events.gpsStates == [.fix])
    }
}
