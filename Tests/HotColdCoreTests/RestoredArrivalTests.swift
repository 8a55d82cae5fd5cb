import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Restarts: places the device is already at come back as an explicit input to the engine.
@Suite(.offCooperativePool) struct RestoredArrivalTests {
    let origin = Coordinate(latitude: -30.2767, longitude: 153.1353)
    var target: Target { Target(id: "big-banana", name: "Big Banana", kind: .bigThing, coordinate: origin) }

    /// Parked `distance` m from the target for `seconds`.
    func parked(_ distance: Double, seconds: Double = 20) -> [Fix] {
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 60, distance: distance), eph: 5, seed: 5)
        track.wait(seconds: seconds, jitter: 2)
        return track.fixes
    }

    func run(_ fixes: [Fix], restored: Set<String>, targets: [Target], mode: TrackingMode = .hunt) -> ([Event], ProximityEngine) {
        var engine = ProximityEngine(targets: targets, mode: mode)
        engine.restoreArrivals(restored)
        let events = fixes.flatMap { engine.process($0) }
        return (events, engine)
    }

    @Test func restartInsideTheRadiusSendsNoSecondArrival() {
        let fixes = parked(40)
        let (events, engine) = run(fixes, restored: ["big-banana"], targets: [target])
        #expect(events.arrivals.isEmpty)
        #expect(events.departures.isEmpty)
        #expect(engine.snapshot().first?.arrived == true)
        #expect(engine.poll().count == 1)
        // Control: without the restored state the same fixes arrive.
        let (fresh, freshEngine) = run(fixes, restored: [], targets: [target])
        #expect(fresh.arrivals.count == 1)
        #expect(freshEngine.snapshot().first?.arrived == true)
    }

    @Test func restoredStateShowsFromTheFirstFix() {
        let fixes = parked(40, seconds: 1)
        let (_, engine) = run(fixes, restored: ["big-banana"], targets: [target])
        #expect(engine.snapshot().first?.arrived == true)
        let (_, fresh) = run(fixes, restored: [], targets: [target])
        #expect(fresh.snapshot().first?.arrived == false, "control: one fix does not arrive by itself")
    }

    @Test func restartAfterLeavingDepartsOnceConfirmed() {
        let fixes = parked(2000, seconds: 10)
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        engine.restoreArrivals(["big-banana"])
        // One fix beyond the exit band is not yet a departure; the second confirms it.
        #expect(engine.process(fixes[0]).departures.isEmpty)
        #expect(engine.snapshot().first?.arrived == true)
        let second = engine.process(fixes[1])
        #expect(second.departures.count == 1)
        #expect(second.departures.first?.target.id == "big-banana")
        #expect(engine.snapshot().first?.arrived == false)
        let rest = fixes.dropFirst(2).flatMap { engine.process($0) }
        #expect(rest.departures.isEmpty && rest.arrivals.isEmpty)
        // Control: not restored, the same fixes send nothing.
        let (fresh, _) = run(fixes, restored: [], targets: [target])
        #expect(fresh.departures.isEmpty)
    }

    @Test func restartBetweenRadiusAndExitBandStaysArrived() {
        let (events, engine) = run(parked(125), restored: ["big-banana"], targets: [target])
        #expect(events.arrivals.isEmpty && events.departures.isEmpty)
        #expect(engine.snapshot().first?.arrived == true)
    }

    @Test func otherTargetsAreNotAffected() {
        let near = Target(id: "near", name: "Near", coordinate: Geodesic.direct(from: origin, bearing: 240, distance: 30))
        let (events, _) = run(parked(40), restored: ["big-banana"], targets: [target, near])
        #expect(events.arrivals.map(\.target.id) == ["near"])
    }

    @Test func roamKeepsRestoredIdsUntilTheTargetComesInRange() {
        // Restored before the first fix, but the place is 8 km away: it is tracked only once
        // the drive brings it inside the 5 km roam radius, and then departs with no arrival.
        var track = SyntheticDrive(start: Geodesic.direct(from: origin, bearing: 90, distance: 8000), eph: 5)
        track.drive(bearing: 90, distance: 1000, speed: 20)   // away from the place
        track.drive(bearing: 270, distance: 6000, speed: 20)  // back to 3 km
        let other = Target(id: "other", name: "Other", coordinate: Coordinate(latitude: -12.46, longitude: 130.84))
        var engine = ProximityEngine(targets: [target, other], mode: .roam(radius: 5000))
        engine.restoreArrivals(["big-banana"])
        #expect(engine.pendingRestoredArrivals == ["big-banana"])
        var events: [Event] = []
        var trackedAt: Int? = nil
        for (n, f) in track.fixes.enumerated() {
            events += engine.process(f)
            if trackedAt == nil, engine.trackedCount > 0 { trackedAt = n }
        }
        #expect(trackedAt != nil && trackedAt! > 50)
        #expect(engine.pendingRestoredArrivals.isEmpty)
        // Beyond the exit band when it came in: confirmed gone by the second fix.
        #expect(events.departures.map(\.target.id) == ["big-banana"])
        #expect(events.arrivals.isEmpty)
    }

    @Test func restoredIdsSurviveARetargetUntilTracked() {
        var engine = ProximityEngine(targets: [], mode: .hunt)
        engine.restoreArrivals(["big-banana"])
        #expect(engine.pendingRestoredArrivals == ["big-banana"])
        engine.retarget([target], mode: .hunt)
        #expect(engine.pendingRestoredArrivals.isEmpty)
        let events = parked(40).flatMap { engine.process($0) }
        #expect(events.arrivals.isEmpty)
        #expect(engine.snapshot().first?.arrived == true)
    }

    @Test func restoredReplayIsDeterministic() {
        let fixes = parked(2000, seconds: 5) + parked(40, seconds: 20).map { f in
            var f = f
            f.time = f.time.addingTimeInterval(5)
            return f
        }
        let a = run(fixes, restored: ["big-banana"], targets: [target]).0
        let b = run(fixes, restored: ["big-banana"], targets: [target]).0
        #expect(a == b)
    }
}
