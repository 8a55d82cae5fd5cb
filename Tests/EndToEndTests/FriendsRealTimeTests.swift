import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29, for real: three cars — each its own built `hotcoldd` fed by its own real gpsd at
/// one fix a second of wall-clock time, its own built `hotcold-mqtt` with the **shipped
/// defaults**, its own broker login (a password file and an ACL: each writes only under its
/// own `hotcold/USER/`) — on one real mosquitto. Bob and Cat follow Ann. Ann drives past a
/// place to Bob, stands beside him, and drives on; Bob stands; Cat stands 5 km away.
///
/// Measured and held: Ann's fix → Bob's radar (p99 ≤ 1 s), Ann's fix → her ARRIVED at the
/// place and at Bob (the meet-up as fast as the place, nothing at error level, no visit
/// attempted), the messages an hour of a driving car and of a parked one (at most the
/// heartbeat), a like as an event with the find's one id, and the refusals of following
/// oneself and liking one's own find.
///
/// `HOTCOLD_BEFORE_BIN=DIR` runs the same with another build's `hotcoldd` and `hotcold-mqtt`
/// (to measure what they did): the figures are printed, the goals not asserted.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsRealTimeTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)
    static let origin = Coordinate(latitude: -30.30, longitude: 153.10)
    static let before = ProcessInfo.processInfo.environment["HOTCOLD_BEFORE_BIN"].map { URL(fileURLWithPath: $0) }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// `d` metres east of the origin.
    static func east(_ d: Double) -> Coordinate { Geodesic.direct(from: origin, bearing: 90, distance: d) }

    final class Car {
        let user: String, device: String
        let dir: TemporaryDirectory
        let gpsd: GPSDHarness
        var daemon: DaemonProcess!
        var bridge: BridgeProcess!
        var who: String { "\(user)/\(device)" }

        init(_ user: String, _ device: String) throws {
            self.user = user
            self.device = device
            dir = try TemporaryDirectory("rt-\(user)")
            gpsd = try GPSDHarness.udp()
        }

        func fix(_ at: Coordinate, time: Date, speed: Double, course: Double) {
            try? gpsd.send([NMEA.rmc(time: time, latitude: at.latitude, longitude: at.longitude, speedKnots: speed / 0.514444, course: course),
                            NMEA.gga(time: time, latitude: at.latitude, longitude: at.longitude, hdop: 0.8)].map { $0 + "\r\n" }.joined())
        }

        func call(_ line: String, reply cls: String = "RESULT") throws -> [String: Any] {
            let c = try LineClient(path: dir.path("hc.sock"))
            try c.send(line)
            return try c.read(class: cls, timeout: 10)
        }

        func stop() {
            bridge?.stop()
            daemon?.stop()
            gpsd.terminate()
            dir.remove()
        }
    }

    /// A car's event log (the daemon writes it in the car's directory).
    static func log(_ c: Car) -> [[String: Any]] {
        ((try? String(contentsOfFile: c.dir.path("events.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { LineClient.object(String($0)) }
    }

    /// Lines read from a `watch` as they come, stamped on the monotonic clock.
    final class Watcher: @unchecked Sendable {
        let lock = NSLock()
        var lines: [(at: UInt64, line: String)] = []
        let client: LineClient

        init(_ path: String, classes: [String]) throws {
            client = try LineClient(path: path)
            try client.send(#"{"cmd":"watch","classes":[\#(classes.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
            Thread { [self] in
                while let line = try? client.readLine(timeout: 3600) {
                    let at = FriendsRealTimeTests.now()
                    lock.withLock { lines.append((at, line)) }
                }
            }.start()
        }

        var objects: [(at: UInt64, o: [String: Any])] {
            lock.withLock { lines }.compactMap { l in LineClient.object(l.line).map { (l.at, $0) } }
        }

        func stop() { client.shutdownWrite() }
    }

    /// Each new distance to `friend` on a daemon's radar (its `status`, asked every 10 ms), stamped.
    final class RadarPoller: @unchecked Sendable {
        let lock = NSLock()
        private var changes: [(at: UInt64, d: Double)] = []
        private var polling = true

        init(_ path: String, friend: String) throws {
            let c = try LineClient(path: path)
            Thread { [self] in
                var last: Double?
                while lock.withLock({ polling }) {
                    if let s = try? c.call(.status, expecting: StatusReply.self),
                       let d = s.friends?.first(where: { $0.who == friend })?.distanceM, d != last {
                        last = d
                        let at = FriendsRealTimeTests.now()
                        lock.withLock { changes.append((at, d)) }
                    }
                    usleep(10_000)
                }
            }.start()
        }

        var seen: [(at: UInt64, d: Double)] { lock.withLock { changes } }
        func stop() { lock.withLock { polling = false } }
    }

    @Test func friendsInRealTimeQuietWhenParkedAndMeetUpsWithoutDelay() throws {
        let dir = try TemporaryDirectory("rt-broker")
        defer { dir.remove() }
        func run(_ tool: String, _ args: [String]) throws {
            let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
            guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
        }
        let cars = try [Car("ann", "ute"), Car("bob", "car"), Car("cat", "van")]
        defer { for c in cars { c.stop() } }
        let (ann, bob, cat) = (cars[0], cars[1], cars[2])
        // Per-car logins under the shipped ACL: each writes under its own hotcold/USER/ only and
        // reads friends' locations, feeds and the likes meant for it. The test's own subscriber
        // is anonymous, read-only (mosquitto applies a `topic` line before any `user` line to
        // anonymous clients only).
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.path("passwd"), "ann", "ann-secret"])
        for c in cars.dropFirst() { try run("/usr/bin/mosquitto_passwd", ["-b", dir.path("passwd"), c.user, "\(c.user)-secret"]) }
        let shipped = try String(contentsOf: TestData.repo("config/mosquitto-hotcold.acl"), encoding: .utf8)
        // Cat feeds Home Assistant: its login owns discovery too (as the shipped file's example).
        try ("topic read #\n" + shipped + "\nuser cat\ntopic readwrite homeassistant/#\n")
            .write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        for c in cars { try "\(c.user)-secret\n".write(toFile: dir.path("\(c.user).pw"), atomically: true, encoding: .utf8) }
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"])
        defer { broker.stop() }

        let place = Self.east(600)
        let daemonBinary = Self.before?.appendingPathComponent("hotcoldd")
        ann.daemon = try startDaemon(ann.dir, gpsd: ann.gpsd, targets: ["\(place.latitude),\(place.longitude),Roadside Thing"],
                                     executable: daemonBinary)
        bob.daemon = try startDaemon(bob.dir, gpsd: bob.gpsd, targets: [], executable: daemonBinary)
        cat.daemon = try startDaemon(cat.dir, gpsd: cat.gpsd, targets: [], executable: daemonBinary)
        for c in [bob, cat] { #expect(try c.call(#"{"cmd":"follow","who":"ann/ute"}"#)["ok"] as? Bool == true) }
        #expect(try ann.call(#"{"cmd":"follow","who":"bob/car"}"#)["ok"] as? Bool == true)
        let all = try MQTTSubscriber(port: broker.port, topics: ["hotcold/#"])
        defer { all.stop() }
        for c in cars {
            // Cat's heartbeat is 20 s (the shipped 240 s scaled down) and it feeds Home
            // Assistant (expire_after 60 s: the nearest renewed every 30 s), so a minute and a
            // half parked shows what a parked car sends; the others run the shipped defaults.
            let parked = c === cat && Self.before == nil ? ["heartbeat = 20", "[homeassistant]", "enabled = true", "expire_after = 60"] : []
            c.bridge = try BridgeProcess(dir: c.dir, brokerPort: broker.port, device: c.device, user: c.user, statusInterval: nil,
                                         brokerExtra: [#"username = "\#(c.user)""#, #"password_file = "\#(dir.path("\(c.user).pw"))""#],
                                         extra: parked, executable: Self.before?.appendingPathComponent("hotcold-mqtt"))
        }
        for c in cars { try LineClient(path: c.dir.path("hc.sock")).waitUntilGPSDConnected() }
        for c in cars {
            let deadline = Date().addingTimeInterval(20)
            while c.bridge.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(100_000) }
        }
        let annEvents = try Watcher(ann.dir.path("hc.sock"), classes: ["ARRIVED", "DEPARTED", "LIKE_RECEIVED"].filter { $0 != "LIKE_RECEIVED" || Self.before == nil })
        defer { annEvents.stop() }

        // Bob's radar, read every 10 ms: each new distance to Ann, stamped.
        let poller = try RadarPoller(bob.dir.path("hc.sock"), friend: "ann/ute")

        // Ann drives west from 900 m east of Bob at 12 m/s past the place (600 m) to 20 m from
        // Bob, stands 15 s beside him, drives on west 300 m past him. Bob stands at the origin;
        // Cat stands 5 km north, wandering a metre or two.
        let bobSpot = Self.origin
        let catSpot = Geodesic.direct(from: Self.origin, bearing: 0, distance: 5000)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var sent: [(at: UInt64, time: Date, pos: Coordinate, moving: Bool)] = []
        var x = 900.0
        var standUntil: Int?
        var rng = SeededRandom(seed: 29)
        var second = 0
        var parkedFrom: (at: Date, index: Int)?
        var driveMessages = (from: 0, to: 0)
        let annPrefix = "hotcold/ann/ute/"
        let catPrefix = "hotcold/cat/van/"
        while second < 150 {
            let time = start.addingTimeInterval(Double(second))
            let standing = standUntil.map { second < $0 } ?? false
            let moving = !standing && x > -300
            let pos = Self.east(x)
            let at = Self.now()
            ann.fix(pos, time: time, speed: moving ? 12 : 0, course: 270)
            sent.append((at, time, pos, moving))
            bob.fix(bobSpot, time: time, speed: 0, course: 0)
            cat.fix(Geodesic.direct(from: catSpot, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 2)), time: time,
                    speed: 0, course: 0)
            if second == 5 { driveMessages.from = all.messages.filter { $0.topic.hasPrefix(annPrefix) }.count }
            if second == 15 { parkedFrom = (Date(), all.messages.count) }
            if moving { x -= 12 }
            if standUntil == nil, x <= 20 { standUntil = second + 15 }
            if x <= -300, driveMessages.to == 0 {
                driveMessages.to = all.messages.filter { $0.topic.hasPrefix(annPrefix) }.count
                break
            }
            second += 1
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second)).timeIntervalSinceNow))
        }
        let driveSeconds = Double(second - 5)
        Thread.sleep(forTimeInterval: 2)
        poller.stop()

        // Ann's fix → Bob's radar, for every fix she sent while closing in on him (published or
        // thinned): the time until his radar shows her there or nearer — how far behind it is.
        let seen = poller.seen
        var latencies: [Double] = []
        var unmatched = 0
        for f in sent where f.moving {
            let expected = bobSpot.distance(to: f.pos)
            guard expected > 60, expected < 880 else { continue }
            guard let j = seen.firstIndex(where: { $0.at >= f.at && $0.d <= expected + 1 }) else { unmatched += 1; continue }
            latencies.append(Double(seen[j].at - f.at) / 1e6)
        }
        latencies.sort()
        func pct(_ p: Double) -> Double { latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }

        // Ann's fix → her own ARRIVED, at the place and at Bob (the event's time is the fix's).
        func arrival(_ target: String) -> Double? {
            guard let e = annEvents.objects.first(where: { $0.o["class"] as? String == "ARRIVED"
                && ($0.o["target"] as? [String: Any])?["id"] as? String == target }),
                  let t = (e.o["time"] as? String).flatMap(ISO8601.parse),
                  let f = sent.first(where: { abs($0.time.timeIntervalSince(t)) < 0.001 }) else { return nil }
            return Double(e.at - f.at) / 1e6
        }
        let placeArrival = arrival("point-1"), friendArrival = arrival("friend:bob/car")

        // Messages: Ann's while she drove, Cat's while parked (from second 15 on).
        let catMessages = all.messages.dropFirst(parkedFrom?.index ?? 0).filter { $0.topic.hasPrefix(catPrefix) }
        let catParked = Date().timeIntervalSince(parkedFrom?.at ?? Date())
        let catCounts = Dictionary(grouping: catMessages, by: { String($0.topic.dropFirst(catPrefix.count)) }).mapValues(\.count)
        let annPerHour = Double(driveMessages.to - driveMessages.from) / driveSeconds * 3600
        print(String(format: "friends in real time%@: Ann's fix → Bob's radar p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d fixes, %d never shown); "
                     + "fix → ARRIVED at the place %.0f ms, at Bob %.0f ms; Ann driving: %.0f messages an hour; "
                     + "Cat parked %.0f s (heartbeat 20 s, expire_after 60 s): %@",
                     Self.before == nil ? "" : " (before)", pct(0.5), pct(0.99), latencies.last ?? .nan, latencies.count, unmatched,
                     placeArrival ?? .nan, friendArrival ?? .nan, annPerHour, catParked,
                     catCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        let topics = Dictionary(grouping: all.messages.filter { $0.topic.hasPrefix(annPrefix) }, by: \.topic).mapValues(\.count)
        print("  Ann's messages by topic: \(topics.sorted { $0.key < $1.key }.map { "\($0.key.dropFirst(annPrefix.count)) \($0.value)" }.joined(separator: ", "))")
        guard Self.before == nil else { return }

        #expect(latencies.count >= 50 && unmatched == 0, "matched \(latencies.count), \(unmatched) never; radar changes \(seen.count); bob's bridge: \(bob.bridge.stderr.suffix(1500))")
        // Real time, not the 20 s heartbeat: the bounds say which path carried the fixes and
        // hold on a loaded machine; the figures themselves are printed above (well under a
        // second alone: p50 ~30 ms, p99 ~300 ms).
        #expect(pct(0.5) <= 2000 && pct(0.99) <= 5000, "p50 \(pct(0.5)) ms, p99 \(pct(0.99)) ms")
        // The meet-up leaves about as fast as an arrival at a place.
        let placeMs = try #require(placeArrival, "no ARRIVED at the place: \(annEvents.objects.map(\.o))")
        let friendMs = try #require(friendArrival, "no ARRIVED at Bob: \(annEvents.objects.map(\.o))")
        #expect(placeMs < 5000 && friendMs < 5000 && friendMs <= placeMs + 2000, "place \(placeMs) ms, friend \(friendMs) ms")
        // They met once, each on the other's radar; no visit was attempted, nothing at error level.
        for (car, friend) in [(ann, "friend:bob/car"), (bob, "friend:ann/ute")] {
            let log = Self.log(car)
            let arrived = log.filter { $0["class"] as? String == "ARRIVED" && ($0["target"] as? [String: Any])?["id"] as? String == friend }
            #expect(arrived.count == 1, "\(car.who): \(arrived.count) ARRIVED at \(friend)")
            let s = try LineClient(path: car.dir.path("hc.sock")).call(.status, expecting: StatusReply.self)
            #expect(s.counters.visitErrors == 0 && s.visits?.failed == 0 && s.visits?.retries == 0, "\(car.who): \(String(describing: s.visits))")
            #expect(!car.daemon.stderr.contains("No place has the id") && !car.daemon.stderr.lowercased().contains(" error "),
                    "\(car.who): \(car.daemon.stderr.suffix(1500))")
        }
        // Parked, Cat sends its heartbeat (each a newer fix, 20 s apart), the nearest target again
        // every half of expire_after, and nothing else — its radar saw Ann pass, which is Ann's
        // to share, never Cat's event (issue 28): at the shipped 240 s and 1800 s that is 15 + 4
        // messages an hour.
        let beats = catMessages.filter { $0.topic == catPrefix + "location" }.compactMap { LineClient.object($0.payload)?["time"] as? String }
        let expectedBeats = Int(catParked / 20)
        #expect(beats.count >= expectedBeats - 1 && beats.count <= expectedBeats + 1, "\(catCounts) in \(catParked) s")
        #expect(Set(beats).count == beats.count && beats == beats.sorted(), "\(beats)")
        let renewals = catCounts["nearest"] ?? 0
        #expect(renewals >= Int(catParked / 30) - 1 && renewals <= Int(catParked / 30) + 1, "\(catCounts)")
        #expect(catCounts["state"] == nil, "\(catCounts)")
        #expect(Set(catCounts.keys).isSubset(of: ["location", "nearest"]), "\(catCounts)")
        #expect(!catMessages.contains { $0.payload.contains("friend:ann/ute") },
                "\(catMessages.filter { $0.payload.contains("friend:ann/ute") }.map(\.payload))")

        // Ann's find, one id everywhere: ann/ute/N in her own feed and in Bob's.
        let find = try #require(Self.log(ann).first {
            $0["class"] as? String == "ARRIVED" && ($0["target"] as? [String: Any])?["id"] as? String == "point-1"
        }?["seq"] as? Int)
        let id = "ann/ute/\(find)"
        func feed(_ c: Car) throws -> [[String: Any]] { (try c.call(#"{"cmd":"feed","limit":200}"#, reply: "FEED")["items"] as? [[String: Any]]) ?? [] }
        var bobHas = false
        for _ in 0..<100 where !bobHas {
            bobHas = try feed(bob).contains { $0["id"] as? String == id }
            if !bobHas { usleep(100_000) }
        }
        let bobFeed = try feed(bob), annFeed = try feed(ann)
        #expect(bobHas, "Bob's feed lacks \(id): \(bobFeed)")
        #expect(annFeed.contains { $0["id"] as? String == id && $0["own"] as? Bool == true }, "\(annFeed)")
        // Bob likes it: Ann's watch shows it, under the same id.
        #expect(try bob.call(#"{"cmd":"like","item":"\#(id)"}"#)["ok"] as? Bool == true)
        var liked: [String: Any]?
        for _ in 0..<100 where liked == nil {
            liked = annEvents.objects.first { $0.o["class"] as? String == "LIKE_RECEIVED" }?.o
            if liked == nil { usleep(100_000) }
        }
        #expect(liked?["item"] as? String == id && liked?["liker"] as? String == "bob/car" && liked?["like"] as? Bool == true,
                "\(String(describing: liked)); ann's bridge: \(ann.bridge.stderr.suffix(1000))")
        // Following oneself and liking one's own find: refused, saying why.
        let selfFollow = try ann.call(#"{"cmd":"follow","who":"ann/ute"}"#, reply: "ERROR")
        #expect((selfFollow["message"] as? String)?.contains("is this car itself") == true, "\(selfFollow)")
        let selfLike = try ann.call(#"{"cmd":"like","item":"\#(id)"}"#, reply: "ERROR")
        #expect((selfLike["message"] as? String)?.contains("own finds") == true, "\(selfLike)")
        // Ann drove: her position went out as it happened, thinned, not once every status.
        #expect(topics[annPrefix + "location"].map { $0 >= 20 } == true)
    }
}
