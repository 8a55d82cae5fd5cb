import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 32: the phone's regions are the places themselves. The set with hysteresis, the
/// commands each app gets, and both apps' merge rules (`OwnTracksPhone`) applied to them over
/// a long drive and at a boundary in noise.
@Suite(.offCooperativePool) struct PhoneRegionsTests {
    /// Places scattered along a road running east for `km` kilometres, within ±`band` km of it.
    static func catalogue(count: Int, km: Double, band: Double, seed: UInt64 = 32) -> [(id: String, at: Coordinate)] {
        var rng = SeededRandom(seed: seed)
        let start = Coordinate(latitude: -30.3, longitude: 150.0)
        return (0..<count).map { i in
            let along = Geodesic.direct(from: start, bearing: 90, distance: rng.uniform(-5_000, km * 1000 + 5_000))
            let at = Geodesic.direct(from: along, bearing: rng.uniform(0, 1) < 0.5 ? 0 : 180, distance: rng.uniform(0, band * 1000))
            return ("place-\(i)", at)
        }
    }

    /// What STATUS gives the bridge: the 50 nearest, each at its own coordinates.
    static func status(from car: Coordinate, _ places: [(id: String, at: Coordinate)]) -> [PhoneRegions.Place] {
        places.map { PhoneRegions.Place(id: $0.id, name: "Thing \($0.id)", at: $0.at, distance: car.distance(to: $0.at)) }
            .sorted { $0.distance < $1.distance }.prefix(50).map { $0 }
    }

    @Test(arguments: PhoneRegions.App.allCases)
    func aLongDriveKeepsBothAppsHoldingExactlyTheSetAtThePlacesOwnCoordinates(_ app: PhoneRegions.App) throws {
        let dir = try TemporaryDirectory("regions"); defer { dir.remove() }
        let places = Self.catalogue(count: 300, km: 130, band: 5)
        let exact = Dictionary(uniqueKeysWithValues: places.map { ($0.id, $0.at) })
        let store = RegionStore(directory: dir.url.path)
        var regions = PhoneRegions(settings: .init(count: 20, radius: 100, app: app, minInterval: 60))
        // The Android rules take either strategy's commands only if it is the Android one; iOS takes both.
        var phones = [OwnTracksPhone(app: .ios)] + (app == .android ? [OwnTracksPhone(app: .android)] : [])
        let start = Coordinate(latitude: -30.3, longitude: 150.0)
        let wallStart = Date()
        var commands = 0, sets = 0
        for second in 0..<(130_000 / 30) {
            let car = Geodesic.direct(from: start, bearing: 90, distance: Double(second) * 30)
            let now = Double(second)
            let candidates = Self.status(from: car, places)
            if let change = regions.change(candidates, now: now) {
                let pubs = OwnTracksLayout.commands(for: change, app: app, radius: 100,
                                                    stamp: { store.stamp($0, now: wallStart) }, phoneTopic: "owntracks/jane/phone")
                for p in pubs {
                    #expect(p.topic == "owntracks/jane/phone/cmd" && !p.retain)
                    // Every region at its place's own coordinates, to the centimetre.
                    for w in Self.waypoints(p.payload) where (w["lat"] as? Double).map({ abs($0) <= 90 }) ?? false {
                        let at = try #require(exact[w["rid"] as? String ?? ""])
                        let c = Coordinate(latitude: w["lat"] as! Double, longitude: w["lon"] as! Double)
                        #expect(c.distance(to: at) < 0.05)
                        #expect((w["tst"] as? Int).map { $0 <= Int(Date().timeIntervalSince1970) } == true)
                    }
                    for k in phones.indices { try phones[k].receive(p.payload) }
                    commands += 1
                }
                regions.sent(change, now: now)
                sets += 1
                // The phone holds exactly the set, never more than 20, whatever its app.
                let held = Set(change.set.map(\.id))
                #expect(held.count == 20)
                for phone in phones {
                    #expect(phone.rids == held, "\(phone.app) after command \(commands)")
                    #expect(phone.strays == 0)
                    #expect(phone.regions.allSatisfy { !$0.beacon })
                }
                // The set is the nearest 20, up to the hysteresis: none held is clearly out, none
                // left out is clearly nearer than one held.
                let d20 = candidates[19].distance
                #expect(change.set.allSatisfy { $0.distance <= d20 * 1.1 + 100 })
                let farthest = change.set.map(\.distance).max() ?? 0
                #expect(candidates.filter { !held.contains($0.id) }.allSatisfy { $0.distance * 1.1 + 100 >= farthest })
            }
            // At every moment, a place within 2 km of the car is one of the phone's regions:
            // its geofence is armed before the car gets there.
            let rids = phones[0].rids
            for c in candidates where c.distance < 2_000 { #expect(rids.contains(c.id), "second \(second): \(c.id) at \(Int(c.distance)) m") }
        }
        // One command (Android: a clear and a set when a place leaves) per change, at most one a minute.
        #expect(sets > 20 && sets <= 130_000 / 30 / 60 + 1, "\(sets) changes")
        print("phone regions, \(app): 130 km at 30 m/s past 300 places: \(sets) changes of the set, \(commands) commands, "
              + "\(phones.map { "\($0.app) re-registered \($0.registrations) regions" }.joined(separator: ", "))")
    }

    static func waypoints(_ payload: String) -> [[String: Any]] {
        guard let o = LineClient.object(payload), let w = o["waypoints"] as? [String: Any] else { return [] }
        return w["waypoints"] as? [[String: Any]] ?? []
    }

    @Test func parkedWhereTheTwentiethAndTwentyFirstAreEquallyFarFixNoiseSendsNothing() throws {
        let car = Coordinate(latitude: -30.3, longitude: 153.1)
        // 19 near places, then two at 3 km in opposite directions: equally far.
        var places: [(id: String, at: Coordinate)] = (0..<19).map { i in
            ("near-\(i)", Geodesic.direct(from: car, bearing: Double(i) * 19, distance: 500 + Double(i) * 100))
        }
        places.append(("east", Geodesic.direct(from: car, bearing: 90, distance: 3_000)))
        places.append(("west", Geodesic.direct(from: car, bearing: 270, distance: 3_000)))
        places += (0..<10).map { i in ("far-\(i)", Geodesic.direct(from: car, bearing: Double(i) * 36, distance: 20_000)) }
        var regions = PhoneRegions(settings: .init(count: 20, radius: 100, app: .android, minInterval: 0))
        var rng = SeededRandom(seed: 6)
        var changes = 0
        var flips = 0
        var lastOrder: Bool?
        for second in 0..<3_600 {
            // ±6 m of fix noise, wandering: east and west trade the 20th place back and forth.
            let fix = Geodesic.direct(from: car, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 6))
            let candidates = Self.status(from: fix, places)
            let eastNearer = fix.distance(to: places[19].at) < fix.distance(to: places[20].at)
            if let last = lastOrder, last != eastNearer { flips += 1 }
            lastOrder = eastNearer
            if let change = regions.change(candidates, now: Double(second)) {
                regions.sent(change, now: Double(second))
                changes += 1
            }
        }
        #expect(flips > 100, "the noise should flip the two often (\(flips))")
        #expect(changes == 1, "one set at the start, then nothing: \(changes)")
    }

    @Test func aPlaceClearlyNearerTakesASlotAndAHeldOneLeavesOnlyWhenClearlyOut() {
        // Each place stands where it stands; the car moves, so only its distance changes.
        func place(_ id: String, _ d: Double) -> PhoneRegions.Place {
            let at = Coordinate(latitude: Double(id.unicodeScalars.first!.value) / 10, longitude: 0)
            return PhoneRegions.Place(id: id, name: id, at: at, distance: d)
        }
        var r = PhoneRegions(settings: .init(count: 2, radius: 100, app: .ios, minInterval: 10))
        let first = r.change([place("a", 1000), place("b", 2000), place("c", 2050)], now: 0)
        #expect(first.map { Set($0.set.map(\.id)) } == ["a", "b"])
        r.sent(first!, now: 0)
        // c a little nearer than b: within the margin, nothing.
        #expect(r.change([place("a", 1000), place("b", 2050), place("c", 2000)], now: 20) == nil)
        // c clearly nearer (2000 × 1.1 + 100 < 2500): it takes b's slot; b is removed.
        let swap = r.change([place("a", 1000), place("b", 2500), place("c", 2000)], now: 20)
        #expect(swap.map { Set($0.set.map(\.id)) } == ["a", "c"] && swap?.removed.map(\.id) == ["b"] && swap?.added.map(\.id) == ["c"])
        // Too soon after the last change: wait.
        r.sent(swap!, now: 20)
        #expect(r.change([place("a", 1000), place("d", 10), place("c", 2000)], now: 25) == nil)
        #expect(r.change([place("a", 1000), place("d", 10), place("c", 2000)], now: 30) != nil)
        // A place that moved (edited) is sent again at its new centre; one that did not, never.
        var moved = place("a", 1000)
        moved.lat += 0.001
        #expect(r.change([moved, place("c", 2000)], now: 100)?.added.map(\.id) == ["a"])
        #expect(r.change([place("a", 1000), place("c", 2000)], now: 100) == nil)
    }

    @Test func creationTimesAreUniqueInThePastAndKeptAcrossRestarts() throws {
        let dir = try TemporaryDirectory("stamps"); defer { dir.remove() }
        let now = Date()
        let store = RegionStore(directory: dir.url.path)
        // Twenty places first sent in the same second: twenty seconds, the latest now, none ahead.
        let stamps = (0..<20).map { store.stamp("p\($0)", now: now) }
        #expect(Set(stamps).count == 20)
        #expect(stamps.allSatisfy { $0 <= Int(now.timeIntervalSince1970) && $0 > Int(now.timeIntervalSince1970) - 60 })
        #expect(store.stamp("p3", now: now.addingTimeInterval(500)) == stamps[3])
        let held = [PhoneRegions.Place(id: "p1", name: "One", at: Coordinate(latitude: 1, longitude: 2), distance: 3)]
        store.setHeld(held, phoneTopic: "owntracks/j/phone", app: .ios)
        try store.save()
        let again = RegionStore(directory: dir.url.path)
        #expect((0..<20).map { again.stamp("p\($0)", now: now.addingTimeInterval(3600)) } == stamps)
        #expect(again.held(phoneTopic: "owntracks/j/phone", app: .ios) == held)
        // Another phone, or another app's way of removing, starts from nothing.
        #expect(again.held(phoneTopic: "owntracks/j/other", app: .ios).isEmpty)
        #expect(again.held(phoneTopic: "owntracks/j/phone", app: .android).isEmpty)
        // A damaged file is set aside, not trusted.
        try "{not json".write(toFile: again.path, atomically: true, encoding: .utf8)
        var said: [String] = []
        let fresh = RegionStore(directory: dir.url.path) { said.append($0) }
        #expect(fresh.held(phoneTopic: "owntracks/j/phone", app: .ios).isEmpty)
        #expect(FileManager.default.fileExists(atPath: fresh.path + ".unusable") && said.count == 1)
    }

    @Test func androidRemovesByClearingAndIOSByAnOutOfRangePosition() throws {
        let a = PhoneRegions.Place(id: "a", name: "A", at: Coordinate(latitude: 1, longitude: 1), distance: 1)
        let b = PhoneRegions.Place(id: "b", name: "B", at: Coordinate(latitude: 2, longitude: 2), distance: 2)
        let c = PhoneRegions.Place(id: "c", name: "C", at: Coordinate(latitude: 3, longitude: 3), distance: 3)
        let change = PhoneRegions.Change(removed: [b], added: [c], set: [a, c])
        let stamp = { (id: String) in ["a": 100, "b": 101, "c": 102][id]! }
        let android = OwnTracksLayout.commands(for: change, app: .android, radius: 50, stamp: stamp, phoneTopic: "p")
        #expect(android.map(\.payload).first == #"{"_type":"cmd","action":"clearWaypoints"}"#)
        #expect(Self.waypoints(android[1].payload).map { $0["rid"] as? String } == ["a", "c"])
        let ios = OwnTracksLayout.commands(for: change, app: .ios, radius: 50, stamp: stamp, phoneTopic: "p")
        #expect(ios.count == 1)
        let w = Self.waypoints(ios[0].payload)
        #expect(w.map { $0["rid"] as? String } == ["b", "c"] && w[0]["lat"] as? Int == -1_000_000)
        // Only newcomers: one set, nothing cleared, in either way.
        let join = PhoneRegions.Change(removed: [], added: [c], set: [a, b, c])
        #expect(OwnTracksLayout.commands(for: join, app: .android, radius: 50, stamp: stamp, phoneTopic: "p").count == 1)
        // What the apps do with them.
        var droid = OwnTracksPhone(app: .android), phone = OwnTracksPhone(app: .ios)
        let first = PhoneRegions.Change(removed: [], added: [a, b], set: [a, b])
        for p in OwnTracksLayout.commands(for: first, app: .android, radius: 50, stamp: stamp, phoneTopic: "p") { try droid.receive(p.payload) }
        for p in OwnTracksLayout.commands(for: first, app: .ios, radius: 50, stamp: stamp, phoneTopic: "p") { try phone.receive(p.payload) }
        for p in android { try droid.receive(p.payload) }
        for p in ios { try phone.receive(p.payload) }
        #expect(droid.rids == ["a", "c"] && phone.rids == ["a", "c"] && phone.strays == 0)
    }
}
