import Foundation
import HotColdCore
import HotColdTestSupport

/// Engine throughput: fixes/s with one hunted target, and roaming among 100k targets.
func benchEngine() {
    print("== engine")
    // One target: a drive that approaches, passes and leaves it, so every branch runs.
    let origin = Coordinate(latitude: -33.8688, longitude: 151.2093)
    let start = Geodesic.direct(from: origin, bearing: 270, distance: 20_000)
    let fixes = benchDrive(from: start, bearing: 90, speed: 20, count: 2000)
    let one = [Target(id: "t", name: "T", coordinate: Geodesic.direct(from: origin, bearing: 0, distance: 40))]
    let rounds = 250
    var events = 0
    let (t1, c1) = medianTimes {
        for r in 0..<rounds {
            var engine = ProximityEngine(targets: one, mode: .hunt)
            var out: [Event] = []
            let shift = Double(r) * 10_000
            for f in fixes {
                var f = f
                f.time = f.time.addingTimeInterval(shift)
                out.removeAll(keepingCapacity: true)
                engine.process(f, into: &out)
                events &+= out.count
            }
        }
    }
    print("engine, 1 target (hunt):          \(rate(rounds * fixes.count, t1)) fixes (median of 5; by CPU time \(rate(rounds * fixes.count, c1)))")

    // 100k targets over Australia's land box; the drive crosses a dense patch so that every
    // target within 10 km is tracked (tens at a time).
    var rng = SeededRandom(seed: 42)
    var targets: [Target] = []
    targets.reserveCapacity(100_000)
    for i in 0..<100_000 {
        let c = Coordinate(latitude: rng.uniform(-39, -11), longitude: rng.uniform(114, 153))
        targets.append(Target(id: "p\(i)", name: "Place \(i)", kind: .bigThing, coordinate: c))
    }
    let buildStart = DispatchTime.now().uptimeNanoseconds
    var roamer = ProximityEngine(targets: targets, mode: .roam(radius: 10_000))
    let buildMs = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e6
    let drive = benchDrive(from: Coordinate(latitude: -25, longitude: 120), bearing: 80, speed: 30, count: 20_000)
    var tracked = 0
    let (t2, c2) = medianTimes(runs: 3) {
        var engine = roamer
        var out: [Event] = []
        for f in drive {
            out.removeAll(keepingCapacity: true)
            engine.process(f, into: &out)
            events &+= out.count
        }
        tracked = engine.trackedCount
    }
    _ = roamer.process(drive[0])
    print("engine, 100k targets (roam 10 km): \(rate(drive.count, t2)) fixes (median of 3; by CPU time \(rate(drive.count, c2))); index built in \(String(format: "%.0f", buildMs)) ms; \(tracked) tracked at the end")
    // The roaming index alone: the candidates within reach of 20,000 random points.
    let index = SpatialIndex(targets)
    var points: [Coordinate] = []
    for _ in 0..<20_000 { points.append(Coordinate(latitude: rng.uniform(-39, -11), longitude: rng.uniform(114, 153))) }
    var candidates = 0
    let query = medianSeconds(runs: 5) {
        for p in points { index.forEachCandidate(within: 10_500, of: p) { _ in candidates &+= 1 } }
    }
    print(String(format: "roam index (k-d tree), 100k targets: candidates within 10.5 km in %.2f µs a query (median of 5), %d per query on average",
                 query / Double(points.count) * 1e6, candidates / 5 / points.count))
    if events == 42 { print("") }   // keep the work observable
}
