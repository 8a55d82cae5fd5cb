import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Friends' trends from the two devices' velocities (issue 26): when both stand, `steady`
/// within a few seconds of the second one stopping and never a direction again while they
/// stand; two moving cars that pass each other are colder at once.
@Suite(.offCooperativePool) struct FriendTrendTests {
    static let origin = Coordinate(latitude: -30.2963, longitude: 153.1135)
    static let jane = "friend:jane/ute"

    /// The radar's trend for Jane after every fix, both timelines fed in time order.
    struct Trace {
        var steps: [(t: Double, trend: Trend)] = []

        init(own: [Fix], friend: [Fix]) {
            var radar = FriendRadar()
            var i = 0, j = 0
            while i < own.count || j < friend.count {
                let t: Double
                if j >= friend.count || (i < own.count && own[i].time <= friend[j].time) {
                    _ = radar.processOwn(own[i])
                    t = own[i].time.timeIntervalSince1970
                    i += 1
                } else {
                    _ = try? radar.processFriend(id: FriendTrendTests.jane, name: "Jane", fix: friend[j])
                    t = friend[j].time.timeIntervalSince1970
                    j += 1
                }
                if let s = radar.snapshot().first(where: { $0.target.id == FriendTrendTests.jane }), s.distance != nil {
                    steps.append((t, s.trend))
                }
            }
        }

        func first(_ trend: Trend, after time: Double) -> Double? {
            steps.first { $0.t > time && $0.trend == trend }.map { $0.t - time }
        }

        func trends(from a: Double, to b: Double) -> Set<Trend> {
            Set(steps.filter { $0.t > a && $0.t <= b }.map(\.trend))
        }
    }

    /// A phone as the bridge forwards it: a fix a second, 3 m of scatter, a Doppler speed and,
    /// unless `course`, no course.
    static func phone(_ route: Route, seed: UInt64, course: Bool = false, phase: Double = 0.5) -> [Fix] {
        var r = DopplerReceiver(interval: 1, phase: phase, positionSigma: 3, seed: seed)
        r.reportsCourse = course
        return r.fixes(route)
    }

    /// Our car's receiver: a fix a second, 2 m of scatter, Doppler speed and course.
    static func car(_ route: Route, seed: UInt64) -> [Fix] {
        DopplerReceiver(interval: 1, phase: 0, seed: seed).fixes(route)
    }

    /// We are parked; Jane drives at us from 3 km, parks 40 m away for a minute, and drives off.
    @Test(arguments: [false, true])
    func aFriendApproachingParkingAndLeaving(course: Bool) {
        for seed in UInt64(1)...6 {
            var ours = Route(origin: Self.origin, x: 0, y: 0, heading: 0)
            ours.stop(seconds: 400)
            var hers = Route(origin: Self.origin, x: 3000, y: 40, heading: 270)
            hers.cruise(distance: 2700, speed: 15)
            hers.accelerate(to: 0, rate: 3)
            let parked = hers.start + hers.duration
            hers.stop(seconds: 60)
            hers.reverse()
            let off = hers.start + hers.duration
            hers.accelerate(to: 15, rate: 2.5)
            hers.cruise(distance: 1000, speed: 15)
            let trace = Trace(own: Self.car(ours, seed: seed), friend: Self.phone(hers, seed: seed + 100, course: course))
            let label = "seed \(seed), course \(course)"
            #expect(trace.trends(from: hers.start + 30, to: parked - 20) == [.hotter], "\(label): approaching \(trace.trends(from: hers.start + 30, to: parked - 20))")
            let steady = trace.first(.steady, after: parked)
            #expect(steady.map { $0 <= 4 } == true, "\(label): steady \(steady.map { "\($0)" } ?? "never") s after she parked")
            #expect(trace.trends(from: parked + 4, to: off) == [.steady], "\(label): parked \(trace.trends(from: parked + 4, to: off))")
            let colder = trace.first(.colder, after: off)
            #expect(colder.map { $0 <= 8 } == true, "\(label): colder \(colder.map { "\($0)" } ?? "never") s after she left")
            #expect(!trace.trends(from: off, to: hers.start + hers.duration).contains(.hotter), "\(label): hotter as she leaves")
            #expect(trace.trends(from: off + (colder ?? 0), to: hers.start + hers.duration) == [.colder], "\(label): leaving")
        }
    }

    /// We follow Jane 3 km behind at 20 m/s; she stops, we drive on for 10 s (closing in:
    /// hotter) and stop too. Steady within a few seconds of our stop, for the whole minute.
    static func bothStop(seed: UInt64) -> (trace: Trace, stopped: Double, end: Double) {
        var hers = Route(origin: Self.origin, x: 0, y: 0, heading: 90)
        hers.cruise(seconds: 60, speed: 20)
        hers.accelerate(to: 0, rate: 3)
        hers.stop(seconds: 90)
        var ours = Route(origin: Self.origin, x: -3000, y: 0, heading: 90)
        ours.cruise(seconds: 70, speed: 20)
        ours.accelerate(to: 0, rate: 3)
        let stopped = ours.start + ours.duration
        ours.stop(seconds: 70)
        return (Trace(own: Self.car(ours, seed: seed), friend: Self.phone(hers, seed: seed + 200)), stopped, ours.start + ours.duration)
    }

    @Test func bothStopFarApart() {
        for seed in UInt64(1)...6 {
            let (trace, stopped, end) = Self.bothStop(seed: seed)
            let steady = trace.first(.steady, after: stopped)
            #expect(steady.map { $0 <= 4 } == true, "seed \(seed): steady \(steady.map { "\($0)" } ?? "never") s after both stopped")
            #expect(trace.trends(from: stopped + 4, to: end) == [.steady], "seed \(seed): \(trace.trends(from: stopped + 4, to: end))")
        }
    }

    /// Jane is parked; we drive up and park 30 m from her. Steady within a few seconds, and no
    /// hotter (or colder) for the minute we stand there.
    static func parkBeside(seed: UInt64) -> (trace: Trace, stopped: Double, end: Double) {
        var hers = Route(origin: Self.origin, x: 0, y: 0, heading: 0)
        hers.stop(seconds: 200)
        var ours = Route(origin: Self.origin, x: -1500, y: 30, heading: 90)
        ours.cruise(distance: 1450, speed: 15)
        ours.accelerate(to: 0, rate: 3)
        let stopped = ours.start + ours.duration
        ours.stop(seconds: 60)
        return (Trace(own: Self.car(ours, seed: seed), friend: Self.phone(hers, seed: seed + 300)), stopped, ours.start + ours.duration)
    }

    @Test func parkingBesideAParkedFriend() {
        for seed in UInt64(1)...6 {
            let (trace, stopped, end) = Self.parkBeside(seed: seed)
            let steady = trace.first(.steady, after: stopped)
            #expect(steady.map { $0 <= 4 } == true, "seed \(seed): steady \(steady.map { "\($0)" } ?? "never") s after we parked")
            #expect(trace.trends(from: stopped + 4, to: end) == [.steady], "seed \(seed): \(trace.trends(from: stopped + 4, to: end))")
        }
    }

    /// Seconds from the second stop to steady, and the stops in which a direction came after
    /// that, over six seeds. Prints.
    @Test func report() {
        for (name, scenario) in [("both stop 3 km apart", Self.bothStop), ("parking 30 m beside her", Self.parkBeside)] {
            var latencies: [String] = []
            var flips = 0
            for seed in UInt64(1)...6 {
                let (trace, stopped, end) = scenario(seed)
                let steady = trace.first(.steady, after: stopped)
                latencies.append(steady.map { String(format: "%.0f", $0) } ?? "never")
                let settled = stopped + (steady ?? 0)
                if steady == nil || !trace.trends(from: settled, to: end).isSubset(of: [.steady]) { flips += 1 }
            }
            print("friend report: \(name): steady after \(latencies.joined(separator: ", ")) s; \(flips) of 6 not steady to the end")
        }
    }

    /// Two moving cars (her phone reporting a course): driving at each other on roads 30 m
    /// apart at 15 m/s each, hotter; once past each other, colder within a second.
    @Test func twoMovingCarsPassingEachOther() {
        for seed in UInt64(1)...6 {
            var ours = Route(origin: Self.origin, x: -1500, y: 0, heading: 90)
            ours.cruise(distance: 2500, speed: 15)
            var hers = Route(origin: Self.origin, x: 1500, y: 30, heading: 270)
            hers.cruise(distance: 2500, speed: 15)
            let met = ours.start + 100
            let trace = Trace(own: Self.car(ours, seed: seed), friend: Self.phone(hers, seed: seed + 400, course: true))
            #expect(trace.trends(from: ours.start + 20, to: met - 5) == [.hotter], "seed \(seed): \(trace.trends(from: ours.start + 20, to: met - 5))")
            let colder = trace.first(.colder, after: met)
            #expect(colder.map { $0 <= 1 } == true, "seed \(seed): colder \(colder.map { "\($0)" } ?? "never") s after passing")
            let after = met + (colder ?? 0)
            #expect(trace.trends(from: after, to: ours.start + ours.duration) == [.colder], "seed \(seed): after passing \(trace.trends(from: after, to: ours.start + ours.duration))")
        }
    }
}
