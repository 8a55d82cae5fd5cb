import Foundation
import HotColdCore
import HotColdTestSupport

/// Runs `body` `runs` times and returns the median seconds.
func medianSeconds(runs: Int = 5, _ body: () -> Void) -> Double {
    medianTimes(runs: runs, body).wall
}

/// Runs `body` `runs` times and returns the median wall seconds and the median CPU seconds of
/// this thread. On a shared machine the wall time counts the time other processes held the
/// core; the CPU time does not, so it is the steadier figure for comparing two builds.
func medianTimes(runs: Int = 5, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    var walls: [Double] = [], cpus: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = threadCPUSeconds()
        body()
        cpus.append(threadCPUSeconds() - cpuStart)
        walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    walls.sort()
    cpus.sort()
    return (walls[walls.count / 2], cpus[cpus.count / 2])
}

/// CPU time consumed by the calling thread, in seconds.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
