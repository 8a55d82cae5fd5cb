import Foundation
import HotColdCore
import HotColdMQTT
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Friends through one broker (issue 19): 50 cars publishing their position at 1 fix/s, of
/// which `HOTCOLD_FRIENDS_FOLLOWERS` (default 10; at most 40, so that each follows 10 distinct
/// simulated cars; 40 ran on two shared cores with p99 0.42 s) are real followers — a built `hotcoldd` fed a standing car by a real gpsd, and
/// a built `hotcold-mqtt` — each following 10 of the others. The others are simulated in this
/// process (one libmosquitto client publishing each car's `…/location` as a bridge does),
/// driving to and from the followers so that tiers and trends change.
///
/// Prints friend fix → follower's socket event (PROXIMITY/ARRIVED/DEPARTED of a friend) p50
/// and p99 (one clock: CLOCK_MONOTONIC here, from the publish call to the line read on a
/// `watch` connection; the followers' bridges run the shipped defaults), and each follower daemon's CPU with its 10 friends against the same
/// daemon before the friends moved (own fixes only), per followed friend.
func benchFriends() {
    guard MosquittoBroker.available, GPSDHarness.gpsdAvailable else { print("friends: mosquitto or gpsd not installed; skipped"); return }
    for name in ["hotcoldd", "hotcold-mqtt"] where !FileManager.default.isExecutableFile(atPath: Binaries.url(name).path) {
        print("friends: \(Binaries.url(name).path) missing; build it (swift build -c release)")
        return
    }
    let env = ProcessInfo.processInfo.environment
    let followers = max(1, min(40, Int(env["HOTCOLD_FRIENDS_FOLLOWERS"] ?? "") ?? 10))
    let seconds = max(20, Double(env["HOTCOLD_FRIENDS_SECONDS"] ?? "") ?? 90)
    print("friends: 50 cars at 1 fix/s through one mosquitto; \(followers) real followers (hotcoldd + hotcold-mqtt) following 10 each, \(50 - followers) simulated; \(Int(seconds)) s")
    do {
        let r = try FriendsRun(cars: 50, followers: followers, follows: 10, seconds: seconds).run()
        print(String(format: "  friend fix → follower's socket event: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d events; %d not matched to a fix)",
                     r.p50, r.p99, r.max, r.count, r.unmatched))
        print(String(format: "  follower daemon CPU: %.2f %% of a core with 10 friends at 1 fix/s, %.2f %% before (own fixes only) → %.3f %% per followed friend; bridge %.2f %% (medians of %d)",
                     r.daemonBusy, r.daemonIdle, (r.daemonBusy - r.daemonIdle) / 10, r.bridgeBusy, followers))
        print("  friends on each follower's radar at the end: \(r.onRadar.map(String.init).joined(separator: ", ")) of 10 (status)")
    } catch {
        print("  \(error)")
    }
}

private struct FriendsResult {
    var p50 = 0.0, p99 = 0.0, max = 0.0, count = 0, unmatched = 0
    var daemonBusy = 0.0, daemonIdle = 0.0, bridgeBusy = 0.0
    var onRadar: [Int] = []
}

private final class FriendsRun: @unchecked Sendable {
    let cars: Int, followers: Int, follows: Int, seconds: Double
    /// Where every follower stands.
    let home = Coordinate(latitude: -30.30, longitude: 153.10)
    private let lock = NSLock()
    /// Per device: when each position was published and its distance from the followers. A
    /// friend event is matched by its distance: since protocol 1.8 its `time` is on the
    /// follower's own timeline, not the friend's.
    private var published: [String: [(sent: UInt64, d: Double)]] = [:]
    private var arrivals: [(who: String, d: Double, at: UInt64)] = []

    init(cars: Int, followers: Int, follows: Int, seconds: Double) {
        self.cars = cars
        self.followers = followers
        self.follows = follows
        self.seconds = seconds
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// utime + stime of a process, seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return 0 }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The followed cars of follower `k` (simulated ones only: followers stand still).
    func followed(by k: Int) -> [Int] {
        (0..<follows).map { j in followers + (k * follows + j) % (cars - followers) }
    }

    /// Car `c`'s position `t` seconds in: to and fro on its own bearing between 250 m and
    /// 2,250 m from the followers at 25 m/s, each car at its own phase.
    func position(car c: Int, t: Double) -> (Coordinate, Double) {
        let span = 2000.0, speed = 25.0
        let period = 2 * span / speed
        let phase = (t + Double(c) * 13).truncatingRemainder(dividingBy: period)
        let along = phase < period / 2 ? span - phase * speed : (phase - period / 2) * speed
        let d = 250 + along
        let b = Double(c) * 360 / Double(cars) * .pi / 180
        let lat = home.latitude + d * cos(b) / 111_320
        let lon = home.longitude + d * sin(b) / (111_320 * cos(home.latitude * .pi / 180))
        return (Coordinate(latitude: lat, longitude: lon), speed)
    }

    func run() throws -> FriendsResult {
        let broker = try MosquittoBroker.start(extra: ["max_inflight_messages 100", "max_queued_messages 100000",
                                                       "autosave_on_changes false", "autosave_interval 1800"])
        defer { broker.stop() }
        let dir = try TemporaryDirectory("friends-bench")
        defer { dir.remove() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        // The followers stand at home: one receiver, every daemon a client of the same gpsd.
        let standing = SyntheticTrack(start: (home.latitude, home.longitude), startTime: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
                                      bearing: 0, speed: 0)
        let receiver = NMEAFeeder(track: standing, udpPort: gpsd.udpPort!, interval: 1.0)
        receiver.start()
        defer { receiver.stop() }

        var daemons: [DaemonProcess] = []
        var bridges: [Process] = []
        defer {
            for b in bridges where b.isRunning { kill(b.processIdentifier, SIGTERM); b.waitUntilExit() }
            for d in daemons { d.stop() }
        }
        for k in 0..<followers {
            let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
            daemons.append(d)
            let config = dir.path("bridge\(k).toml")
            try """
                [daemon]
                socket = "\(d.socketPath)"
                [broker]
                host = "127.0.0.1"
                port = \(broker.port)
                [topics]
                user = "bench"
                device = "car\(k)"
                [bridge]
                state_directory = "\(dir.path("state\(k)"))"
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = Binaries.url("hotcold-mqtt")
            p.arguments = ["--config", config]
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
            bridges.append(p)
        }
        for (k, d) in daemons.enumerated() {
            let c = try d.connect()
            try c.waitUntilGPSDConnected(timeout: 20)
            for car in followed(by: k) {
                guard let who = FriendID(parsing: "bench/car\(car)") else { continue }
                _ = try c.call(.follow(FollowRequest(who: who)), expecting: OKReply.self)
            }
        }
        // A watcher per follower: every friend event, stamped as it is read.
        var watchers: [LineClient] = []
        for d in daemons {
            let c = try d.connect()
            try c.send(.watch(WatchRequest(classes: ["PROXIMITY", "ARRIVED", "DEPARTED"])))
            watchers.append(c)
            Thread { [self] in
                while let line = try? c.readLine(timeout: 3600) {
                    let at = Self.now()
                    guard line.contains(#""kind":"friend""#), let o = LineClient.object(line),
                          let target = o["target"] as? [String: Any], let id = target["id"] as? String,
                          let d = o["distance_m"] as? Double else { continue }
                    lock.withLock { arrivals.append((who: String(id.dropFirst("friend:".count)), d: d, at: at)) }
                }
            }.start()
        }
        Thread.sleep(forTimeInterval: 3)    // bridges subscribed (the follows sent FOLLOWING_CHANGED: at once)

        // Before: the daemons with their own fixes and silent friends.
        let idleSpan = 10.0
        let idle0 = daemons.map { Self.cpuSeconds($0.pid) }
        Thread.sleep(forTimeInterval: idleSpan)
        let idle = zip(daemons, idle0).map { (Self.cpuSeconds($0.0.pid) - $0.1) / idleSpan * 100 }

        let publisher = try MosquittoClient(options: .init(host: "127.0.0.1", port: Int(broker.port), clientID: "bench-friends-pub")) { _ in }
        try publisher.start()
        defer { publisher.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let start = Date()
        var busy0: [Double] = [], bridge0: [Double] = [], measureFrom: Date?
        var tick = 0
        while Date().timeIntervalSince(start) < seconds {
            let t = Double(tick)
            for car in followers..<cars {
                let (at, speed) = position(car: car, t: t)
                let time = ISO8601.format(Date())
                var o = JSONLine.object()
                o.add("time", time)
                o.add("latitude", at.latitude, decimals: 7)
                o.add("longitude", at.longitude, decimals: 7)
                o.add("gps_accuracy", 5)
                o.add("speed_mps", speed, decimals: 2)
                let sent = Self.now()
                let shown = Coordinate(latitude: (at.latitude * 1e7).rounded() / 1e7, longitude: (at.longitude * 1e7).rounded() / 1e7)
                let d = home.distance(to: shown)
                lock.withLock { published["bench/car\(car)", default: []].append((sent, d)) }
                _ = try? publisher.publish(Publication(topic: "hotcold/bench/car\(car)/location", payload: o.text, retain: true))
            }
            if measureFrom == nil, Date().timeIntervalSince(start) >= 5 {
                measureFrom = Date()
                busy0 = daemons.map { Self.cpuSeconds($0.pid) }
                bridge0 = bridges.map { Self.cpuSeconds($0.processIdentifier) }
            }
            tick += 1
            let next = start.addingTimeInterval(Double(tick))
            Thread.sleep(forTimeInterval: max(0, next.timeIntervalSinceNow))
        }
        let span = Date().timeIntervalSince(measureFrom ?? start)
        let busy = zip(daemons, busy0).map { (Self.cpuSeconds($0.0.pid) - $0.1) / span * 100 }
        let bridgeBusy = zip(bridges, bridge0).map { (Self.cpuSeconds($0.0.processIdentifier) - $0.1) / span * 100 }
        Thread.sleep(forTimeInterval: 2)
        for w in watchers { w.shutdownWrite() }

        var r = FriendsResult()
        var latencies: [Double] = []
        lock.withLock {
            for a in arrivals {
                if let p = published[a.who]?.last(where: { $0.sent < a.at && abs($0.d - a.d) < 0.5 }) {
                    latencies.append(Double(a.at - p.sent) / 1e6)
                } else {
                    r.unmatched += 1
                }
            }
        }
        latencies.sort()
        func pct(_ p: Double) -> Double { latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        func median(_ v: [Double]) -> Double { v.isEmpty ? .nan : v.sorted()[v.count / 2] }
        r.p50 = pct(0.5)
        r.p99 = pct(0.99)
        r.max = latencies.last ?? .nan
        r.count = latencies.count
        r.daemonBusy = median(busy)
        r.daemonIdle = median(idle)
        r.bridgeBusy = median(bridgeBusy)
        for d in daemons {
            let s = (try? d.connect()).flatMap { try? $0.call(.status, expecting: StatusReply.self) }
            r.onRadar.append(s?.friends?.count ?? -1)
        }
        return r
    }
}
