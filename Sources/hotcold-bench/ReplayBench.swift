import Foundation
import HotColdCore
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `hotcold replay` end to end: writes a 1.2M-TPV gpsd JSON recording of a generated drive
/// (1 Hz, speeds 0–30 m/s with stops, gentle turns, `Geodesic.direct` steps, jitter, staying
/// within ~30 km of Sydney so targets are at road-trip distances), then runs
/// the `hotcold` binary beside this executable (`hotcold replay FILE --target ...` with five
/// targets on and near the route, stdout to a file) five times. Prints the median fixes/s over
/// wall time (goal ≥ 200k/s) and the child's peak RSS from `wait4`'s rusage.
/// Build both in release first: `swift build -c release`.
func benchReplay() {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let hotcold = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("hotcold").path
    guard FileManager.default.isExecutableFile(atPath: hotcold) else {
        print("replay: no hotcold binary at \(hotcold) (swift build -c release --product hotcold)")
        return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-replay-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }

    let count = 1_200_000
    let track = dir.appendingPathComponent("drive.tpv.jsonl").path
    let route = writeDrive(track, count: count)
    let size = (try? FileManager.default.attributesOfItem(atPath: track)[.size] as? Int) ?? 0
    // Targets: on the route, 60 m and 400 m beside it, and 3 km away, spread along the drive.
    let targets = [(0.1, 0.0), (0.3, 60.0), (0.5, 400.0), (0.7, 0.0), (0.9, 3000.0)].enumerated().map { i, spec in
        let p = route[Int(Double(route.count) * spec.0)]
        let q = Geodesic.direct(from: p, bearing: 90, distance: spec.1)
        return String(format: "%.7f,%.7f,T%d", q.latitude, q.longitude, i + 1)
    }
    let args = ["replay", track] + targets.flatMap { ["--target", $0] }
    let out = dir.appendingPathComponent("events.jsonl").path
    let err = dir.appendingPathComponent("stderr.txt").path

    var seconds: [Double] = []
    var peakKB = 0
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let (status, usage) = spawnAndWait(hotcold, args, stdout: out, stderr: err) else { return }
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        peakKB = max(peakKB, Int(usage.ru_maxrss))
        if status != 0 {
            print("replay: hotcold exited \(status): \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
            return
        }
    }
    let events = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    seconds.sort()
    let median = seconds[seconds.count / 2]
    print(String(format: "hotcold replay (gpsd JSON, %d TPV, %.0f MB, 5 targets, %d events): median %.2f s, %@ fixes end to end (median of 5; best %.2f s), peak RSS %.1f MB",
                 count, Double(size) / 1e6, events, median, rate(count, median), seconds[0], Double(peakKB) / 1024))
}

/// Writes `count` TPV lines (after a VERSION line) of a 1 Hz drive; returns the true positions.
private func writeDrive(_ path: String, count: Int) -> [Coordinate] {
    var rng = SeededRandom(seed: 2947)
    let home = Coordinate(latitude: -33.8688, longitude: 151.2093)
    var p = home
    var bearing = 30.0, speed = 0.0, cruise = 25.0, stopLeft = 0
    var route: [Coordinate] = []
    route.reserveCapacity(count)
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = FileHandle(forWritingAtPath: path)!
    var buffer = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
    buffer.reserveCapacity(1 << 21)
    let t0 = 1_700_000_000.0
    for i in 0..<count {
        // A stop (lights, a break) every so often; otherwise accelerate towards a cruise speed.
        if stopLeft > 0 {
            stopLeft -= 1
            speed = max(0, speed - 3)
        } else {
            if rng.unit() < 0.002 { stopLeft = Int(rng.uniform(10, 90)) }
            if rng.unit() < 0.001 { cruise = rng.uniform(8, 30) }
            speed += max(-2, min(1.5, cruise - speed))
        }
        bearing = (bearing + rng.uniform(-2, 2) + (rng.unit() < 0.003 ? rng.uniform(-90, 90) : 0) + 360)
            .truncatingRemainder(dividingBy: 360)
        // Stay in the region (a fortnight of errands around Sydney, not a drive to Perth): past
        // 30 km from home, turn for home.
        if i % 30 == 0 {
            let back = Geodesic.inverse(p, home)
            if back.distance > 30_000 { bearing = back.initialBearing }
        }
        if speed > 0 { p = Geodesic.direct(from: p, bearing: bearing, distance: speed) }
        route.append(p)
        let eph = rng.uniform(3, 12)
        let j = Geodesic.direct(from: p, bearing: rng.uniform(0, 360), distance: abs(rng.uniform(-1, 1)) * eph / 3)
        let time = ISO8601.format(Date(timeIntervalSince1970: t0 + Double(i)))
        buffer += #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":""#
        buffer += time
        buffer += String(format: #"","ept":0.005,"lat":%.9f,"lon":%.9f,"altHAE":%.3f,"altMSL":%.3f,"alt":%.3f,"epx":%.3f,"epy":%.3f,"epv":%.3f,"track":%.4f,"speed":%.3f,"climb":0.000,"eps":%.2f,"eph":%.3f}"#,
                             j.latitude, j.longitude, 60.0 + Double(i % 50) * 0.1, 38.0 + Double(i % 50) * 0.1, 38.0 + Double(i % 50) * 0.1,
                             eph * 0.7, eph * 0.7, eph * 2, bearing, speed, eph * 2, eph)
        buffer += "\n"
        if buffer.utf8.count > 1 << 21 {
            handle.write(Data(buffer.utf8))
            buffer.removeAll(keepingCapacity: true)
        }
    }
    handle.write(Data(buffer.utf8))
    handle.closeFile()
    return route
}

/// posix_spawn with stdout/stderr to files; waits with wait4 for the child's own rusage.
private func spawnAndWait(_ path: String, _ args: [String], stdout: String, stderr: String) -> (Int32, rusage)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard rc == 0 else {
        print("replay: posix_spawn \(path): \(String(cString: strerror(rc)))")
        return nil
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS by hand (the macros are not imported).
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), usage)
}
