import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 32, for real: a built `hotcoldd` hunting 240 places strewn along a 130 km road, fed by
/// a real gpsd (30 m/s, a fix every 15 ms of wall time), a built `hotcold-mqtt` with a phone
/// topic, one real mosquitto, and a subscriber on the phone's `cmd` topic that applies every
/// command under both apps' rules (`OwnTracksPhone`). Then the car parks where the 20th and
/// 21st places are equally far, in ±6 m of fix noise.
///
/// Held: every region within 1 m of its place and never moved; the phone's merged set is the
/// bridge's set of 20 (both apps), the nearest 20 up to the hysteresis, and holds every place
/// within 2 km of the car at every fix; `tst` in the past and one per place; no command while
/// parked at the boundary.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct PhoneRegionsDriveTests: BridgeSuite {
    let track = SyntheticTrack(start: (-30.30, 150.00), bearing: 90, speed: 30)
    static let seconds = 130_000 / 30

    /// 220 places within 5 km of the road up to 125 km, then the parking constellation at the
    /// road's end: 19 places within 1.5 km, and two at exactly 3 km, north and south.
    func places() -> (places: [Coordinate], end: Coordinate) {
        var rng = SeededRandom(seed: 32)
        var out: [Coordinate] = (0..<220).map { _ in
            let on = track.point(second: Int(rng.uniform(0, Double(125_000 / 30))))
            return Geodesic.direct(from: Coordinate(latitude: on.latitude, longitude: on.longitude),
                                   bearing: rng.uniform(0, 1) < 0.5 ? 0 : 180, distance: rng.uniform(50, 5_000))
        }
        let e = track.point(second: Self.seconds)
        let end = Coordinate(latitude: e.latitude, longitude: e.longitude)
        out += (0..<19).map { i in Geodesic.direct(from: end, bearing: Double(i) * 19, distance: 300 + Double(i) * 60) }
        out += [Geodesic.direct(from: end, bearing: 0, distance: 3_000), Geodesic.direct(from: end, bearing: 180, distance: 3_000)]
        return (out, end)
    }

    @Test func aLongDriveAndAParkingAtTheBoundaryUnderBothAppsRules() throws {
        let dir = try TemporaryDirectory("phone-drive")
        defer { dir.remove() }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let (places, end) = self.places()
        let daemon = try startDaemon(dir, gpsd: gpsd, targets: places.enumerated().map { "\($1.latitude),\($1.longitude),Thing \($0 + 1)" })
        defer { daemon.stop() }
        let sub = try MQTTSubscriber(port: broker.port, topics: ["owntracks/t/phone/cmd", "hotcold/t/car/location"])
        defer { sub.stop() }
        // The drive runs at 2,000 times real speed (a fix every 15 ms), the bridge's intervals
        // scaled with it (a status every 0.125 s, a phone command at most every 0.5 s): the car
        // covers at most 1 km between two commands, as at half that speed with twice the
        // intervals. A loaded machine only slows the feed, which leaves the bridge more time.
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car", statusInterval: 0.125,
                                       extra: ["[owntracks]", #"phone_topic = "owntracks/t/phone""#, "phone_interval = 0.5"])
        defer { bridge.stop() }
        try LineClient(path: dir.path("hc.sock")).waitUntilGPSDConnected()
        usleep(500_000)

        // The drive, then parked at the end in noise (the receiver's clock goes on).
        for s in 0...Self.seconds {
            try gpsd.send(track.sentences(second: s).joined())
            Thread.sleep(forTimeInterval: 0.015)
        }
        var rng = SeededRandom(seed: 6)
        var parkedAt: Int?
        for k in 1...600 {
            let at = Geodesic.direct(from: end, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 6))
            let time = track.startTime.addingTimeInterval(Double(Self.seconds + k))
            try gpsd.send([NMEA.rmc(time: time, latitude: at.latitude, longitude: at.longitude, speedKnots: 0, course: 0),
                      NMEA.gga(time: time, latitude: at.latitude, longitude: at.longitude, hdop: 0.8)].map { $0 + "\r\n" }.joined())
            // 100 fixes to settle (2.5 s: the last change of the drive may wait for phone_interval).
            if k == 100 { parkedAt = sub.messages.count }
            Thread.sleep(forTimeInterval: 0.025)
        }
        Thread.sleep(forTimeInterval: 1)
        let messages = sub.messages

        // Both apps, every command in order; the car's position is the last location before it.
        var phones = [OwnTracksPhone(app: .android), OwnTracksPhone(app: .ios)]
        var car: Coordinate?
        var stamps: [String: Int] = [:]
        var centres: [String: Coordinate] = [:]
        var sets = 0, armedChecks = 0
        let nowEpoch = Int(Date().timeIntervalSince1970)
        func id(_ rid: String) -> Int? { rid.hasPrefix("point-") ? Int(rid.dropFirst(6)).map { $0 - 1 } : nil }
        for (k, m) in messages.enumerated() {
            if m.topic.hasSuffix("/location") {
                guard let o = LineClient.object(m.payload), let lat = o["latitude"] as? Double, let lon = o["longitude"] as? Double else { continue }
                let here = Coordinate(latitude: lat, longitude: lon)
                car = here
                // Every place within 2 km is one of the phone's regions: armed before the car is there.
                guard sets > 0 else { continue }
                for (i, p) in places.enumerated() where here.distance(to: p) < 2_000 {
                    #expect(phones[0].rids.contains("point-\(i + 1)"), "message \(k): point-\(i + 1) at \(Int(here.distance(to: p))) m not held")
                }
                armedChecks += 1
                continue
            }
            for i in phones.indices { try phones[i].receive(m.payload) }
            let o = try #require(LineClient.object(m.payload))
            guard o["action"] as? String == "setWaypoints" else { continue }
            sets += 1
            for w in (o["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]] ?? [] {
                let rid = try #require(w["rid"] as? String), tst = try #require(w["tst"] as? Int)
                let i = try #require(id(rid), "\(rid)")
                // tst: a creation time in the past — the receiver's (the replay's dates, earlier
                // than the box's clock), each place its own second, so when more are made than
                // seconds pass they reach back a little — never changed.
                #expect(tst <= nowEpoch && tst >= Int(track.startTime.timeIntervalSince1970) - places.count, "\(rid) tst \(tst)")
                #expect(stamps[rid].map { $0 == tst } ?? true, "\(rid): tst \(tst) after \(stamps[rid]!)")
                stamps[rid] = tst
                guard let lat = w["lat"] as? Double, let lon = w["lon"] as? Double, abs(lat) <= 90 else { continue }
                let c = Coordinate(latitude: lat, longitude: lon)
                // The region is the place: within 1 m of it, and where it was before.
                #expect(c.distance(to: places[i]) < 1, "\(rid) \(c.distance(to: places[i])) m off")
                if let before = centres[rid] { #expect(c.distance(to: before) < 0.01, "\(rid)'s centre moved") }
                centres[rid] = c
                #expect(w["rad"] as? Int == 100)
            }
            // Both apps hold exactly the same 20 after each set.
            #expect(phones[0].rids == phones[1].rids && phones[0].rids.count == 20, "after set \(sets): \(phones.map(\.rids.count))")
            #expect(phones.allSatisfy { $0.strays == 0 })
            // The nearest 20 up to the hysteresis (10 % + 100 m), with 400 m for the car's drive
            // between the status the bridge decided on and the location seen here.
            if let car {
                let d = places.map { car.distance(to: $0) }
                let d20 = d.sorted()[19]
                let held = Set(phones[0].rids.compactMap(id))
                let farthest = held.map { d[$0] }.max() ?? 0
                #expect(held.allSatisfy { d[$0] <= d20 * 1.1 + 100 + 800 }, "set \(sets): a held place clearly out")
                #expect(d.indices.filter { !held.contains($0) }.allSatisfy { d[$0] * 1.1 + 100 + 800 >= farthest },
                        "set \(sets): a place clearly nearer left out")
            }
        }
        let parkedCommands = messages.dropFirst(parkedAt ?? messages.count).filter { $0.topic.hasSuffix("/cmd") }
        #expect(Set(stamps.values).count == stamps.count, "two places share a tst (Android would keep one)")
        print("phone regions on a real bridge: 130 km, \(sets) setWaypoints (\(messages.filter { $0.topic.hasSuffix("/cmd") }.count) commands), "
              + "\(stamps.count) places sent, \(armedChecks) fixes checked; parked 500 fixes at the boundary: \(parkedCommands.count) commands")
        #expect(sets >= 20, "\(bridge.stderr.suffix(2000))")
        #expect(parkedCommands.isEmpty, "\(parkedCommands.map(\.payload))")
        #expect(armedChecks > 1000)
        _ = daemon
    }
}
