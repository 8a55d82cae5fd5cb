import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The friend radar: a followed device judged by the engine's own rules against this car.
@Suite(.offCooperativePool) struct FriendRadarTests {
    static let jane = "friend:jane/ute"
    static let coffs = Coordinate(latitude: -30.2963, longitude: 153.1135)

    /// Feeds both timelines in time order (ours first on a tie) and returns every event.
    static func run(_ radar: inout FriendRadar, own: [Fix], friend: [Fix], id: String = jane) -> [Event] {
        var out: [Event] = []
        var i = 0, j = 0
        while i < own.count || j < friend.count {
            if j >= friend.count || (i < own.count && own[i].time <= friend[j].time) {
                out += radar.processOwn(own[i])
                i += 1
            } else {
                out += (try? radar.processFriend(id: id, name: "Jane", fix: friend[j])) ?? []
                j += 1
            }
        }
        return out
    }

    static func friendEvents(_ events: [Event], _ id: String = jane) -> [Event] {
        events.filter { $0.target?.id == id }
    }

    @Test func twoCarsConvergeMeetOnceAndPart() {
        // 3 km apart on one road, each driving towards the middle at 15 m/s, a minute parked
        // together, then away from each other.
        let east = Geodesic.direct(from: Self.coffs, bearing: 90, distance: 3000)
        var us = SyntheticDrive(start: Self.coffs, eph: 5, seed: 1)
        var her = SyntheticDrive(start: east, time: 1_700_000_000.5, eph: 8, seed: 2)
        us.drive(bearing: 90, distance: 1500, speed: 15, jitter: 1)
        her.drive(bearing: 270, distance: 1470, speed: 15, jitter: 1)
        us.wait(seconds: 60, jitter: 1)
        her.wait(seconds: 62, jitter: 1)
        us.drive(bearing: 270, distance: 1500, speed: 15, jitter: 1)
        her.drive(bearing: 90, distance: 1500, speed: 15, jitter: 1)
        var radar = FriendRadar()
        let events = Self.friendEvents(Self.run(&radar, own: us.fixes, friend: her.fixes))
        #expect(events.arrivals.count == 1, "\(events.arrivals)")
        #expect(events.departures.count == 1, "\(events.departures)")
        let arrived = events.firstIndex { if case .arrived = $0 { true } else { false } }
        let departed = events.firstIndex { if case .departed = $0 { true } else { false } }
        #expect(arrived != nil && departed != nil && arrived! < departed!)
        #expect(events.arrivals.first.map { $0.distance <= 100 && $0.target.kind == .friend && $0.target.name == "Jane" } == true)
        // Converging reads hotter, parting colder.
        #expect(events.proximities.contains { $0.trend == .hotter })
        #expect(events.proximities.last?.trend == .colder)
        #expect(events.proximities.last.map { $0.distance > 2000 } == true)
        // Deterministic: the same input gives the same events.
        var again = FriendRadar()
        #expect(Self.friendEvents(Self.run(&again, own: us.fixes, friend: her.fixes)) == events)
    }

    /// A phone on a café table: AR(1) drift of σ 7.5 m (±15 m), stating 10–20 m, one fix
    /// every 2 s (or 30 s) for 15 minutes, while our car is parked too. Never hotter (or colder).
    @Test("a friend's phone standing still never reads hotter", arguments: [150.0, 300.0, 520.0, 1000.0, 2100.0])
    func stillPhoneNeverHotter(distance: Double) {
        // Every 2 s, and every 30 s as a phone saving its battery reports.
        for (seed, interval) in [(UInt64(1), 2.0), (2, 2), (3, 2), (4, 2), (5, 30), (6, 30)] {
            let cafe = Geodesic.direct(from: Self.coffs, bearing: 37, distance: distance)
            var accuracies = SeededRandom(seed: seed + 100)
            let phone = StillReceiver(position: cafe, sigma: 7.5, noise: .correlated(tau: 30), seconds: 900, interval: interval,
                                      seed: seed).fixes().map { f in
                Fix(time: f.time, coordinate: f.coordinate, mode: .twoD, eph: accuracies.uniform(10, 20), speed: nil)
            }
            let car = StillReceiver(position: Self.coffs, sigma: 2, noise: .correlated(tau: 20), speedNoise: 0.2,
                                    seconds: 900, seed: seed + 50).fixes()
            var radar = FriendRadar()
            let events = Self.friendEvents(Self.run(&radar, own: car, friend: phone))
            let hotter = events.proximities.filter { $0.trend == .hotter }
            let colder = events.proximities.filter { $0.trend == .colder }
            #expect(hotter.isEmpty, "\(distance) m, seed \(seed): \(hotter.count) hotter")
            #expect(colder.isEmpty, "\(distance) m, seed \(seed): \(colder.count) colder")
            #expect(events.arrivals.isEmpty || distance < 100)
        }
    }

    @Test func aSilentFriendGoesUnknownThenOffTheRadar() {
        // She drives towards us and falls silent; our car keeps reporting, parked.
        var us = SyntheticDrive(start: Self.coffs, eph: 5)
        var her = SyntheticDrive(start: Geodesic.direct(from: Self.coffs, bearing: 0, distance: 4000), eph: 5, seed: 3)
        us.drive(bearing: 0, distance: 600, speed: 15)
        us.wait(seconds: 3700, interval: 5)
        her.drive(bearing: 180, distance: 600, speed: 15)
        let heard = her.fixes.last!.time
        var radar = FriendRadar(config: .init(staleAfter: 300, forgetAfter: 3600))
        let before = us.fixes.filter { $0.time <= heard.addingTimeInterval(299) }
        let events = Self.run(&radar, own: before, friend: her.fixes)
        #expect(events.proximities.contains { $0.trend == .hotter })
        let quiet = radar.advance(to: heard.addingTimeInterval(299))
        #expect(quiet.isEmpty, "\(quiet)")
        #expect(radar.snapshot().first?.stale == false)
        var stale = Self.run(&radar, own: us.fixes.filter { $0.time > heard.addingTimeInterval(299) && $0.time <= heard.addingTimeInterval(301) }, friend: [])
        stale += radar.advance(to: heard.addingTimeInterval(301))
        #expect(stale.proximities.map(\.trend) == [.unknown], "\(stale)")
        #expect(stale.proximities.first?.target.id == Self.jane)
        #expect(radar.advance(to: heard.addingTimeInterval(302)).isEmpty, "said once")
        let s = radar.snapshot()
        #expect(s.count == 1 && s[0].stale && s[0].trend == .unknown && s[0].distance == nil, "never shown as current when old")
        // Our own fixes go on; the stale friend's distance does not come back from them.
        let later = Self.run(&radar, own: us.fixes.filter { $0.time > heard.addingTimeInterval(301) && $0.time <= heard.addingTimeInterval(3500) }, friend: [])
        #expect(later.isEmpty && radar.snapshot().first?.distance == nil)
        _ = radar.advance(to: heard.addingTimeInterval(3601))
        #expect(radar.snapshot().isEmpty && radar.count == 0)
        // Heard again: back on the radar, current.
        _ = radar.processOwn(Fix(time: heard.addingTimeInterval(3699), coordinate: Self.coffs, mode: .threeD, eph: 5))
        let back = (try? radar.processFriend(id: Self.jane, name: "Jane",
                                             fix: Fix(time: heard.addingTimeInterval(3700), coordinate: Geodesic.direct(from: Self.coffs, bearing: 0, distance: 900), mode: .threeD, eph: 5))) ?? []
        #expect(radar.count == 1 && back.proximities.count == 1 && radar.snapshot().first?.stale == false)
    }

    /// Hotter when only one of the two moves and really closes in: we are parked (noisy), she
    /// drives at us; and colder when she drives away. Our stillness does not hide her motion.
    @Test func oneMovingFriendIsEnoughForATrend() {
        let car = StillReceiver(position: Self.coffs, sigma: 2, noise: .correlated(tau: 20), speedNoise: 0.2, seconds: 400, seed: 9).fixes()
        var her = SyntheticDrive(start: Geodesic.direct(from: Self.coffs, bearing: 60, distance: 3000), time: 1_700_000_000.5, eph: 8, seed: 5)
        her.drive(bearing: 240, distance: 2000, speed: 12, jitter: 2)
        her.drive(bearing: 60, distance: 2000, speed: 12, jitter: 2)
        var radar = FriendRadar()
        let events = Self.friendEvents(Self.run(&radar, own: car, friend: her.fixes)).proximities
        let turn = her.fixes[her.fixes.count / 2].time
        #expect(events.contains { $0.trend == .hotter && $0.time < turn }, "\(events.map(\.trend))")
        #expect(events.last?.trend == .colder && events.last.map { $0.time > turn } == true)
        #expect(!events.contains { $0.trend == .colder && $0.time < turn.addingTimeInterval(-10) }, "no colder while she closes in")
    }

    @Test func aWildFriendFixIsIgnored() {
        var us = SyntheticDrive(start: Self.coffs, eph: 5)
        var her = SyntheticDrive(start: Geodesic.direct(from: Self.coffs, bearing: 90, distance: 2000), eph: 5, seed: 4)
        us.wait(seconds: 60)
        her.drive(bearing: 0, distance: 900, speed: 15)
        // One fix 50 km off, claiming good accuracy, halfway through.
        var friendFixes = her.fixes
        let k = friendFixes.count / 2
        friendFixes[k].coordinate = Geodesic.direct(from: friendFixes[k].coordinate!, bearing: 200, distance: 50_000)
        var radar = FriendRadar()
        let events = Self.run(&radar, own: us.fixes, friend: friendFixes)
        #expect(events.proximities.allSatisfy { $0.distance < 3000 }, "\(events.proximities.map(\.distance).max() ?? 0)")
        #expect(radar.stats.outliers == 1)
        #expect(radar.snapshot().first.flatMap(\.distance).map { $0 > 2000 && $0 < 2300 } == true)
    }

    @Test func theRadarHoldsAtMostItsCap() throws {
        var radar = FriendRadar(config: .init(maxFriends: 2))
        let fix = Fix(time: Date(timeIntervalSince1970: 1_700_000_000), coordinate: Self.coffs, mode: .threeD, eph: 5)
        _ = try radar.processFriend(id: "friend:a/1", name: "A", fix: fix)
        _ = try radar.processFriend(id: "friend:b/1", name: "B", fix: fix)
        #expect(throws: FriendRadar.Refusal.full(2)) { try radar.processFriend(id: "friend:c/1", name: "C", fix: fix) }
        // A friend already on it is still heard.
        var later = fix
        later.time = fix.time.addingTimeInterval(1)
        _ = try radar.processFriend(id: "friend:a/1", name: "A", fix: later)
        #expect(radar.count == 2)
    }

    @Test func friendsListNearestFirstWithUnknownLast() throws {
        var radar = FriendRadar()
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try radar.processFriend(id: "friend:far/1", name: "Far", fix: Fix(time: t, coordinate: Geodesic.direct(from: Self.coffs, bearing: 0, distance: 5000), mode: .threeD, eph: 5))
        #expect(radar.snapshot().first?.distance == nil, "no fix of ours yet: no distance")
        _ = radar.processOwn(Fix(time: t.addingTimeInterval(1), coordinate: Self.coffs, mode: .threeD, eph: 5))
        _ = try radar.processFriend(id: "friend:near/1", name: "Near", fix: Fix(time: t.addingTimeInterval(2), coordinate: Geodesic.direct(from: Self.coffs, bearing: 90, distance: 800), mode: .threeD, eph: 5))
        let s = radar.snapshot()
        #expect(s.map(\.target.id) == ["friend:near/1", "friend:far/1"])
        #expect(radar.poll().proximities.map(\.target.id) == ["friend:near/1", "friend:far/1"])
        #expect(s[0].distance.map { abs($0 - 800) < 1 } == true && s[0].tier?.name == "mild")
        #expect(s[1].bearing.map { abs($0 - 0) < 1 || abs($0 - 360) < 1 } == true)
    }
}
