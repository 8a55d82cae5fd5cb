import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Friends for real (issue 19): three cars — three built `hotcoldd`s, each fed by its own real
/// gpsd at one fix a second of wall-clock time, three built `hotcold-mqtt`s — and one real
/// mosquitto. Car a follows b, b follows a, c follows a.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsThreeCarTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)
    static let origin = Coordinate(latitude: -30.30, longitude: 153.10)

    /// One car: its directory (socket, log, database, bridge state), gpsd, daemon and bridge.
    final class Car {
        let name: String
        let dir: TemporaryDirectory
        let gpsd: GPSDHarness
        var daemon: DaemonProcess!
        var bridge: BridgeProcess!
        let port: UInt16

        init(_ name: String, brokerPort: UInt16) throws {
            self.name = name
            port = brokerPort
            dir = try TemporaryDirectory("friends-\(name)")
            gpsd = try GPSDHarness.udp()
        }

        func startBridge() throws { bridge = try BridgeProcess(dir: dir, brokerPort: port, device: name) }

        /// One receiver cycle at `at`, stamped `time`.
        func fix(_ at: Coordinate, time: Date, speed: Double, course: Double) {
            try? gpsd.send([NMEA.rmc(time: time, latitude: at.latitude, longitude: at.longitude, speedKnots: speed / 0.514444, course: course),
                            NMEA.gga(time: time, latitude: at.latitude, longitude: at.longitude, hdop: 0.8)].map { $0 + "\r\n" }.joined())
        }

        /// Sends one command line and returns the first reply of class `cls`.
        func call(_ line: String, reply cls: String = "RESULT") throws -> [String: Any] {
            let c = try LineClient(path: dir.path("hc.sock"))
            try c.send(line)
            return try c.read(class: cls, timeout: 10)
        }

        var log: [String] { ((try? String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        func events(_ cls: String, target id: String) -> [[String: Any]] {
            log.compactMap(LineClient.object).filter { $0["class"] as? String == cls && ($0["target"] as? [String: Any])?["id"] as? String == id }
        }

        func stop() {
            bridge?.stop()
            daemon?.stop()
            gpsd.terminate()
            dir.remove()
        }
    }

    /// `d` metres east of the origin.
    static func east(_ d: Double) -> Coordinate {
        Coordinate(latitude: origin.latitude, longitude: origin.longitude + d / (111_320 * cos(origin.latitude * .pi / 180)))
    }

    @Test func twoCarsMeetAndPartAFindReachesFollowersOnceAndALikeRoundTrips() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let a = try Car("a", brokerPort: broker.port), b = try Car("b", brokerPort: broker.port), c = try Car("c", brokerPort: broker.port)
        defer { for car in [a, b, c] { car.stop() } }
        let thing = Self.east(150)
        a.daemon = try startDaemon(a.dir, gpsd: a.gpsd, targets: ["\(thing.latitude),\(thing.longitude),Roadside Thing"])
        b.daemon = try startDaemon(b.dir, gpsd: b.gpsd, targets: [])
        c.daemon = try startDaemon(c.dir, gpsd: c.gpsd, targets: [])
        for (car, who) in [(a, "t/b"), (b, "t/a"), (c, "t/a")] {
            let r = try car.call(#"{"cmd":"follow","who":"\#(who)"}"#)
            #expect(r["ok"] as? Bool == true, "\(car.name) follow: \(r)")
        }
        for car in [a, b, c] { try car.startBridge() }
        let status = try MQTTSubscriber(port: broker.port, topics: ["hotcold/t/+/status"])
        defer { status.stop() }
        _ = status.wait { m in Set(m.filter { $0.payload == "online" }.map(\.topic)).count == 3 }
        for car in [a, b, c] { try LineClient(path: car.dir.path("hc.sock")).waitUntilGPSDConnected() }
        // Each bridge has asked the daemon whom it follows and subscribed (c's session keeps the
        // subscriptions while its bridge is away).
        for car in [a, b, c] {
            let deadline = Date().addingTimeInterval(20)
            while car.bridge.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(100_000) }
            #expect(!car.bridge.lines(containing: "following 1 device").isEmpty, "\(car.name): \(car.bridge.stderr)")
        }
        usleep(500_000)
        // c's bridge is away (killed) while a finds the Thing.
        c.bridge.kill9()

        // a drives east from the origin past the Thing; b comes west from 900 m; they stop
        // together where they meet, stand, then drive on apart. c stands 5 km north.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var posA = 0.0, posB = 900.0
        var standUntil: Int?
        var brokerRestarted = false, cBack = false, aKilled = false
        var arrivedAt: Int?
        let cSpot = Coordinate(latitude: Self.origin.latitude + 0.045, longitude: Self.origin.longitude)
        for second in 0..<120 {
            let time = start.addingTimeInterval(Double(second))
            let standing = standUntil.map { second < $0 } ?? false
            let speed = standing ? 0.0 : 12.0
            a.fix(Self.east(posA), time: time, speed: speed, course: 90)
            b.fix(Self.east(posB), time: time, speed: speed, course: 270)
            c.fix(cSpot, time: time, speed: 0, course: 0)
            if !standing { posA += 12; posB -= 12 }
            if standUntil == nil, posB - posA < 30 { standUntil = second + 15 }
            // After a's arrival at the Thing: its bridge is killed and restarted (it may send the
            // feed item again), then the broker restarts, then c's bridge comes back.
            if arrivedAt == nil, !a.events("ARRIVED", target: "point-1").isEmpty { arrivedAt = second }
            if let t = arrivedAt {
                if !aKilled, second >= t + 1 { a.bridge.kill9(); try a.startBridge(); aKilled = true }
                if !brokerRestarted, second >= t + 3 { broker.kill(SIGTERM); try broker.restart(); brokerRestarted = true }
                if !cBack, second >= t + 5 { try c.startBridge(); cBack = true }
            }
            if standUntil != nil, !a.events("DEPARTED", target: "friend:t/b").isEmpty, !b.events("DEPARTED", target: "friend:t/a").isEmpty {
                break
            }
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second + 1)).timeIntervalSinceNow))
        }
        // They met once and parted once, each on its own radar.
        for (car, friend) in [(a, "friend:t/b"), (b, "friend:t/a")] {
            let arrived = car.events("ARRIVED", target: friend), departed = car.events("DEPARTED", target: friend)
            #expect(arrived.count == 1, "\(car.name): \(arrived.count) ARRIVED; bridge: \(car.bridge.stderr.suffix(2000))")
            #expect(departed.count == 1, "\(car.name): \(departed.count) DEPARTED")
            #expect(((arrived.first?["target"] as? [String: Any])?["kind"] as? String) == "friend")
            if let x = arrived.first?["seq"] as? Int, let y = departed.first?["seq"] as? Int { #expect(x < y) }
        }
        #expect(c.events("ARRIVED", target: "friend:t/a").isEmpty)

        // a's find is in c's feed exactly once, across a's bridge killed after sending it, the
        // broker's restart and c's bridge away meanwhile.
        let find = try #require(a.events("ARRIVED", target: "point-1").first?["seq"] as? Int, "a never arrived at the Thing")
        let id = "t/a/\(find)"
        func feed(_ car: Car) throws -> [[String: Any]] {
            (try car.call(#"{"cmd":"feed","limit":200}"#, reply: "FEED")["items"] as? [[String: Any]]) ?? []
        }
        var cItems: [[String: Any]] = []
        for _ in 0..<100 {
            cItems = try feed(c).filter { $0["id"] as? String == id }
            if !cItems.isEmpty { break }
            usleep(200_000)
        }
        let cFeed = try feed(c)
        #expect(cItems.count == 1, "c's feed: \(cFeed); c's bridge: \(c.bridge.stderr.suffix(2000))")
        #expect((cItems.first?["place"] as? [String: Any])?["name"] as? String == "Roadside Thing")
        usleep(1_000_000)
        let feedEvents = c.log.compactMap(LineClient.object).filter { $0["class"] as? String == "FEED" && (($0["item"] as? [String: Any])?["seq"] as? Int) == find }
        #expect(feedEvents.count == 1, "c's FEED events for \(id): \(feedEvents.count)")

        // b likes it (twice: one like); a's own feed counts one like, from t/b.
        try #require(try feed(b).contains { $0["id"] as? String == id }, "b's feed lacks \(id)")
        for _ in 0..<2 { #expect(try b.call(#"{"cmd":"like","item":"\#(id)"}"#)["ok"] as? Bool == true) }
        var own: [String: Any]?
        for _ in 0..<100 {
            own = try feed(a).first { ($0["seq"] as? Int) == find && ($0["likes"] as? Int ?? 0) > 0 }
            if own != nil { break }
            usleep(200_000)
        }
        usleep(1_000_000)
        own = try feed(a).first { ($0["seq"] as? Int) == find }
        #expect(own?["likes"] as? Int == 1, "a's item: \(String(describing: own)); a's bridge: \(a.bridge.stderr.suffix(2000))")
        #expect(own?["likers"] as? [String] == ["t/b"])
    }
}
