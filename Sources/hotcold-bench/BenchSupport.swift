import Foundation
import HotColdCore
import HotColdTestSupport

/// Runs `body` `runs` times and returns the median seconds.
func medianSeconds(runs: Int = 5, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    return times[times.count / 2]
}

func rate(_ count: Int, _ seconds: Double) -> String {
    let r = Double(count) / seconds
    if r >= 1e6 { return String(format: "%.2fM/s", r / 1e6) }
    if r >= 1e3 { return String(format: "%.1fk/s", r / 1e3) }
    return String(format: "%.1f/s", r)
}

/// A 1 Hz drive at `speed` m/s along `bearing` with small jitter.
func benchDrive(from start: Coordinate, bearing: Double, speed: Double, count: Int) -> [Fix] {
    var rng = SeededRandom(seed: 7)
    var fixes: [Fix] = []
    fixes.reserveCapacity(count)
    var p = start
    for i in 0..<count {
        p = Geodesic.direct(from: p, bearing: bearing, distance: speed)
        let j = Coordinate(latitude: p.latitude + rng.uniform(-1e-5, 1e-5),
                           longitude: p.longitude + rng.uniform(-1e-5, 1e-5))
        fixes.append(Fix(time: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)),
                         coordinate: j, mode: .threeD, eph: 5, speed: speed, track: bearing))
    }
    return fixes
}
