import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// A friend who parks, as the follower's radar sees her through a bridge: the bridge sends a
/// fix when she moved 10 m, stopped or started, and otherwise nothing for minutes (its
/// heartbeat), so after her stop no fixes come to show it. The radar lets time pass each
/// second (the daemon's tick) and must read `steady` within a few seconds, and stay so.
@Suite(.offCooperativePool) struct FriendAtRestTests {
    static let origin = Coordinate(latitude: -30.2963, longitude: 153.1135)
    static let jane = "friend:jane/ute"

    /// What a hotcold bridge publishes of a receiver's fixes (its `PositionPolicy`, shipped
    /// defaults): moved 10 m (or the fix's accuracy, not driving), stopped, started, heartbeat.
    static func published(_ fixes: [Fix], heartbeat: Double = 240) -> [Fix] {
        var out: [Fix] = []
        for f in fixes {
            guard let last = out.last, let here = f.coordinate, let there = last.coordinate else { out.append(f); continue }
            let moved = there.distance(to: here)
            let wasDriving = (last.speed ?? 0) >= 2, driving = (f.speed ?? 0) >= 2
            let needed = driving ? 10 : max(10, f.horizontalError ?? 0)
            if moved >= needed
                || (wasDriving && (f.speed ?? 1) < 0.5)
                || (!wasDriving && driving && (last.speed ?? 0) < 0.5)
                || f.time.timeIntervalSince(last.time) >= heartbeat {
                out.append(f)
            }
        }
        return out
    }

    /// The trend for Jane each second: both timelines in time order, `advance` every second.
    static func trace(own: [Fix], friend: [Fix], config: FriendRadar.Config = .init()) -> [(t: Double, trend: Trend)] {
        var radar = FriendRadar(config: config)
        var steps: [(t: Double, trend: Trend)] = []
        // Both timelines in time order (ours first on a tie), a tick after each whole second's fixes.
        let fixes = (own.map { ($0, true) } + friend.map { ($0, false) })
            .sorted { ($0.0.time, $0.1 ? 0 : 1) < ($1.0.time, $1.1 ? 0 : 1) }
        guard let first = fixes.first?.0.time.timeIntervalSince1970, let last = fixes.last?.0.time.timeIntervalSince1970 else { return [] }
        var k = 0
        var tick = first.rounded(.down)
        while tick <= last + 1 {
            while k < fixes.count, fixes[k].0.time.timeIntervalSince1970 <= tick {
                if fixes[k].1 { _ = radar.processOwn(fixes[k].0) } else { _ = try? radar.processFriend(id: jane, name: "Jane", fix: fixes[k].0) }
                k += 1
            }
            _ = radar.advance(to: Date(timeIntervalSince1970: tick))
            if let s = radar.snapshot().first(where: { $0.target.id == jane }), s.distance != nil { steps.append((tick, s.trend)) }
            tick += 1
        }
        return steps
    }

    static func car(_ route: Route, seed: UInt64) -> [Fix] { DopplerReceiver(interval: 1, phase: 0, seed: seed).fixes(route) }

    static func phone(_ route: Route, seed: UInt64) -> [Fix] {
        var r = DopplerReceiver(interval: 1, phase: 0.5, positionSigma: 3, seed: seed)
        r.reportsCourse = false
        return r.fixes(route)
    }

    /// We are parked; Jane drives at us and parks `gap` metres away (her last metres slow:
    /// `crawl`), then stands two minutes. Steady within a few seconds of her stop, all along.
    @Test(arguments: [(25.0, false), (25.0, true), (3_000.0, false), (3_000.0, true)])
    func aFriendWhoParksReadsSteadyWithinSecondsAndStaysSo(gap: Double, crawl: Bool) {
        for seed in UInt64(1)...6 {
            var ours = Route(origin: Self.origin, x: 0, y: 0, heading: 0)
            ours.stop(seconds: 400)
            let from = gap + 1500
            var hers = Route(origin: Self.origin, x: from, y: gap > 100 ? 0 : 20, heading: 270)
            hers.cruise(distance: crawl ? 1500 - 40 : 1500 - 20, speed: 12)
            hers.accelerate(to: crawl ? 1.2 : 0, rate: 3)
            if crawl {
                hers.cruise(distance: 12, speed: 1.2)
                hers.accelerate(to: 0, rate: 1)
            }
            let parked = hers.start + hers.duration
            hers.stop(seconds: 120)
            let friend = Self.published(Self.phone(hers, seed: seed + 100))
            let steps = Self.trace(own: Self.car(ours, seed: seed), friend: friend)
            let label = "seed \(seed), \(Int(gap)) m, crawl \(crawl)"
            let approaching = Set(steps.filter { $0.t > hers.start + 20 && $0.t < parked - 15 }.map(\.trend))
            #expect(approaching == [.hotter], "\(label): approaching \(approaching)")
            let steady = steps.first { $0.t >= parked && $0.trend == .steady }.map { $0.t - parked }
            let limit = crawl ? 10.0 : 4.0
            let around = friend.filter { $0.time.timeIntervalSince1970 > parked - 10 }.count
            #expect(steady.map { $0 <= limit } == true,
                    "\(label): steady \(steady.map { "\($0)" } ?? "never") s after she parked (\(around) fixes published around the stop)")
            let after = Set(steps.filter { $0.t > parked + limit && $0.t <= parked + 120 }.map(\.trend))
            #expect(after == [.steady], "\(label): parked \(after)")
        }
    }

    /// A friend on the road whose fixes stop (a tunnel, a lost link) is not at rest: her last
    /// speed says she drives, so the radar keeps what it knew until she is stale.
    @Test func aFastFriendFallingSilentIsNotTakenForParked() {
        var ours = Route(origin: Self.origin, x: 0, y: 0, heading: 0)
        ours.stop(seconds: 200)
        var hers = Route(origin: Self.origin, x: 3000, y: 0, heading: 270)
        hers.cruise(seconds: 60, speed: 20)
        let silentFrom = hers.start + hers.duration
        let friend = Self.published(Self.phone(hers, seed: 9))
        let steps = Self.trace(own: Self.car(ours, seed: 9), friend: friend)
        let silent = Set(steps.filter { $0.t > silentFrom + 1 && $0.t < silentFrom + 120 }.map(\.trend))
        #expect(!silent.contains(.steady), "\(silent)")
    }

    /// While we drive, a silent friend is not made steady: our own fixes tell the distance.
    @Test func drivingAtAParkedFriendIsHotterThoughSheSendsNothing() {
        var hers = Route(origin: Self.origin, x: 0, y: 0, heading: 0)
        hers.stop(seconds: 300)
        var ours = Route(origin: Self.origin, x: -2000, y: 30, heading: 90)
        ours.stop(seconds: 30)
        let off = ours.start + ours.duration
        ours.cruise(distance: 1500, speed: 15)
        let friend = Self.published(Self.phone(hers, seed: 4))
        let steps = Self.trace(own: Self.car(ours, seed: 4), friend: friend)
        let driving = Set(steps.filter { $0.t > off + 20 && $0.t < off + 95 }.map(\.trend))
        #expect(driving == [.hotter], "\(driving)")
    }
}
