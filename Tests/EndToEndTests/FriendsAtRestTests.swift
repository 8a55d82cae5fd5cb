import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Friends who park, for real: three cars — each a built `hotcoldd` fed by its own real gpsd at
/// a fix a second of wall-clock time and a built `hotcold-mqtt` with the shipped defaults — on
/// one real mosquitto. Bob stands and follows Ann and Cat; Ann drives up and parks 25 m from
/// him, Cat parks 3 km away. Their bridges rightly send nothing while they stand, so Bob's radar
/// sees no fix after their stops: `hotcold following` must still say `steady` within a few
/// seconds of each stop, and go on saying so while they stand.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsAtRestTests: BridgeSuite {
    static let origin = Coordinate(latitude: -30.30, longitude: 153.10)
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 270, speed: 12)

    final class Car {
        let user: String, device: String
        let dir: TemporaryDirectory
        let gpsd: GPSDHarness
        var daemon: DaemonProcess!
        var bridge: BridgeProcess!

        init(_ user: String, _ device: String) throws {
            self.user = user
            self.device = device
            dir = try TemporaryDirectory("rest-\(user)")
            gpsd = try GPSDHarness.udp()
        }

        func fix(_ at: Coordinate, time: Date, speed: Double, course: Double) {
            try? gpsd.send([NMEA.rmc(time: time, latitude: at.latitude, longitude: at.longitude, speedKnots: speed / 0.514444, course: course),
                            NMEA.gga(time: time, latitude: at.latitude, longitude: at.longitude, hdop: 0.8)].map { $0 + "\r\n" }.joined())
        }

        func call(_ line: String) throws -> [String: Any] {
            let c = try LineClient(path: dir.path("hc.sock"))
            try c.send(line)
            return try c.read(class: "RESULT", timeout: 10)
        }

        func stop() {
            bridge?.stop()
            daemon?.stop()
            gpsd.terminate()
            dir.remove()
        }
    }

    /// One driver: from `from` metres east of Bob, west at 12 m/s, braking at 3 m/s² to stand at
    /// `to` metres east (and `north` metres north), then standing with a metre of wander.
    struct Driver {
        var x: Double
        let to: Double
        let north: Double
        var speed = 12.0
        var parkedAt: Int?

        init(from: Double, to: Double, north: Double) {
            x = from
            self.to = to
            self.north = north
        }

        /// The next second: position and speed.
        mutating func step(_ second: Int, _ rng: inout SeededRandom) -> (Coordinate, Double) {
            if parkedAt == nil {
                // Brake so as to stand at `to`: v² = 2·a·s.
                let left = x - to
                if left <= speed * speed / 6 + 6 { speed = max(0, speed - 3) }
                x = max(to, x - speed)
                if speed == 0 { parkedAt = second }
            }
            let here = Geodesic.direct(from: Geodesic.direct(from: FriendsAtRestTests.origin, bearing: 90, distance: x),
                                       bearing: 0, distance: north)
            guard parkedAt != nil else { return (here, speed) }
            return (Geodesic.direct(from: here, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 1)), rng.uniform(0, 0.15))
        }
    }

    /// `hotcold following` as Bob reads it: each friend's trend word.
    static func trends(_ bob: Car) throws -> [String: String] {
        let r = try Subprocess.run(Binaries.url("hotcold"), ["following", "--socket", bob.dir.path("hc.sock")])
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let who = String(line.prefix { $0 != " " })
            out[who] = ["hotter", "colder", "steady", "unknown"].first { line.contains(" \($0)") } ?? String(line)
        }
        return out
    }

    @Test func friendsWhoParkReadSteadyWithinSecondsAndStaySo() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let cars = try [Car("bob", "car"), Car("ann", "ute"), Car("cat", "van")]
        defer { for c in cars { c.stop() } }
        let (bob, ann, cat) = (cars[0], cars[1], cars[2])
        for c in cars { c.daemon = try startDaemon(c.dir, gpsd: c.gpsd, targets: []) }
        for who in ["ann/ute", "cat/van"] { #expect(try bob.call(#"{"cmd":"follow","who":"\#(who)"}"#)["ok"] as? Bool == true) }
        for c in cars {
            c.bridge = try BridgeProcess(dir: c.dir, brokerPort: broker.port, device: c.device, user: c.user, statusInterval: nil)
        }
        for c in cars { try LineClient(path: c.dir.path("hc.sock")).waitUntilGPSDConnected() }
        let deadline = Date().addingTimeInterval(20)
        while bob.bridge.lines(containing: "following 2 devices").isEmpty, Date() < deadline { usleep(100_000) }

        var drivers = [Driver(from: 420, to: 25, north: 0), Driver(from: 3_420, to: 3_000, north: 40)]
        var rng = SeededRandom(seed: 39)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // Each friend's trend on Bob's `following`, read once a second, by second.
        var seen: [String: [(second: Int, trend: String)]] = [:]
        var second = 0
        while second < 110 {
            let time = start.addingTimeInterval(Double(second))
            bob.fix(Self.origin, time: time, speed: 0.05, course: 0)
            for (k, car) in [ann, cat].enumerated() {
                let (at, speed) = drivers[k].step(second, &rng)
                car.fix(at, time: time, speed: speed, course: 270)
            }
            if second >= 5 {
                for (who, trend) in try Self.trends(bob) { seen[who, default: []].append((second, trend)) }
            }
            second += 1
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second)).timeIntervalSinceNow))
        }

        for (k, who) in ["ann/ute", "cat/van"].enumerated() {
            let parked = try #require(drivers[k].parkedAt, "\(who) never parked")
            let trace = seen[who] ?? []
            let approach = Set(trace.filter { $0.second > 12 && $0.second < parked - 6 }.map(\.trend))
            // Hotter while she drives, never steady or colder; "unknown" is honest when a loaded
            // machine delays her fixes past their freshness.
            #expect(approach.contains("hotter") && approach.isSubset(of: ["hotter", "unknown"]),
                    "\(who) approaching: \(approach); bob's bridge: \(bob.bridge.stderr.suffix(1500))")
            let steadyAt = trace.first { $0.second >= parked && $0.trend == "steady" }?.second
            // A few seconds: the last fix on the air, the daemon's tick, a loaded machine.
            #expect(steadyAt.map { $0 - parked <= 15 } == true,
                    "\(who) parked at \(parked) s: steady \(steadyAt.map { "after \($0 - parked) s" } ?? "never"); \(trace.suffix(30))")
            let settled = (steadyAt ?? parked) + 1
            // Parked is steady: never hotter or colder again. A loaded machine may hold Bob's own
            // fix back past its freshness for a moment, and "unknown" is then the honest word,
            // but most readings are steady.
            let readings = trace.filter { $0.second >= settled }.map(\.trend)
            let after = Set(readings)
            #expect(after.isSubset(of: ["steady", "unknown"]) && readings.filter { $0 == "steady" }.count * 10 >= readings.count * 8,
                    "\(who) parked: \(readings)")
            #expect(trace.filter { $0.second >= settled }.count >= 40, "\(who): \(trace.count) readings")
        }
        // Nothing new went on the air from the parked cars but their heartbeat (240 s: none here).
        print("friends at rest: ann parked at \(drivers[0].parkedAt ?? -1) s, cat at \(drivers[1].parkedAt ?? -1) s; "
              + "bob read ann \(seen["ann/ute"]?.suffix(3).map(\.trend) ?? []), cat \(seen["cat/van"]?.suffix(3).map(\.trend) ?? [])")
    }
}
