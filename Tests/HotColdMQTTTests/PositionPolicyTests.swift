import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 29: a position goes out when it tells something — as the car moves, thinned by
/// distance and turns — and a heartbeat while it stands; never the same fix twice. Each test
/// feeds an hour of fixes at 1 Hz and prints the messages an hour it would cost.
@Suite(.offCooperativePool) struct PositionPolicyTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    static func fix(_ at: Coordinate, _ second: Int, speed: Double?, track: Double?, accuracy: Double = 5) -> StatusReply.LastFix {
        .init(time: t0.addingTimeInterval(Double(second)), lat: at.latitude, lon: at.longitude, mode: 3,
              accuracyM: accuracy, speedMps: speed, trackDeg: track)
    }

    /// Runs fixes through the policy the way the bridge does (each fix offered, the heartbeat
    /// checked between them); returns what went out, by reason.
    static func run(_ fixes: [StatusReply.LastFix], heartbeat: Double = 240) -> (sent: [StatusReply.LastFix], reasons: [PositionPolicy.Reason: Int]) {
        var p = PositionPolicy(settings: .init(heartbeat: heartbeat))
        var sent: [StatusReply.LastFix] = []
        var reasons: [PositionPolicy.Reason: Int] = [:]
        for (i, f) in fixes.enumerated() {
            let now = Double(i)
            if let r = p.offer(f, now: now) {
                p.didPublish(f, now: now)
                sent.append(f)
                reasons[r, default: 0] += 1
            } else if p.heartbeatDue(now: now + 0.5), let l = p.latest {
                p.didPublish(l, now: now + 0.5)
                sent.append(l)
                reasons[.heartbeat, default: 0] += 1
            }
        }
        return (sent, reasons)
    }

    @Test func parkedAnHourIsTheHeartbeatOnlyForAGoodAndAnOldReceiver() {
        let spot = Coordinate(latitude: -30.3, longitude: 153.1)
        var rng = SeededRandom(seed: 29)
        // A modern receiver wanders 0.2–2.5 m and reports a crawl; an old one wanders within
        // 15 m of the spot, reports ~1 m/s standing still and claims 35 m accuracy.
        var drift = (0.0, 0.0)
        let good = (0..<3600).map { s -> StatusReply.LastFix in
            drift = (max(-2.5, min(2.5, drift.0 + rng.uniform(-0.3, 0.3))), max(-2.5, min(2.5, drift.1 + rng.uniform(-0.3, 0.3))))
            let at = Geodesic.direct(from: Geodesic.direct(from: spot, bearing: 0, distance: drift.0 + 2.5), bearing: 90, distance: drift.1 + 2.5)
            return Self.fix(at, s, speed: rng.uniform(0, 0.3), track: rng.uniform(0, 360))
        }
        let old = (0..<3600).map { s -> StatusReply.LastFix in
            let at = Geodesic.direct(from: spot, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 15))
            return Self.fix(at, s, speed: rng.uniform(0.5, 1.5), track: rng.uniform(0, 360), accuracy: 35)
        }
        for (name, fixes) in [("modern", good), ("old", old)] {
            let r = Self.run(fixes)
            // The first fix, then one every 240 s: 15 an hour (the goal: at most 20).
            #expect(r.sent.count <= 16, "\(name): \(r.reasons)")
            #expect(r.reasons[.first] == 1 && (r.reasons[.heartbeat] ?? 0) >= 14, "\(name): \(r.reasons)")
            // Never the same fix twice: each message a newer fix.
            #expect(zip(r.sent, r.sent.dropFirst()).allSatisfy { $0.time < $1.time })
            print("position, parked an hour (\(name) receiver): \(r.sent.count) messages (\(r.reasons.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")))")
        }
    }

    /// An hour's drive: town blocks (12 m/s, a turn every 300 m, a stop at every third
    /// corner) then highway (30 m/s, gentle bends).
    static func drive() -> [StatusReply.LastFix] {
        var fixes: [StatusReply.LastFix] = []
        var at = Coordinate(latitude: -30.3, longitude: 153.1)
        var heading = 90.0, s = 0, corner = 0
        while s < 1800 {
            for _ in 0..<25 {      // 300 m at 12 m/s
                at = Geodesic.direct(from: at, bearing: heading, distance: 12)
                fixes.append(Self.fix(at, s, speed: 12, track: heading)); s += 1
            }
            corner += 1
            if corner % 3 == 0 {
                for _ in 0..<20 { fixes.append(Self.fix(at, s, speed: 0, track: nil)); s += 1 }
            }
            heading = (heading + (corner % 2 == 0 ? 90 : 270)).truncatingRemainder(dividingBy: 360)
        }
        while s < 3600 {
            heading = 90 + 10 * sin(Double(s) / 120)
            at = Geodesic.direct(from: at, bearing: heading, distance: 30)
            fixes.append(Self.fix(at, s, speed: 30, track: heading)); s += 1
        }
        return fixes
    }

    @Test func drivingAnHourEveryFixGoesAtRoadSpeedAndACrawlEveryTenMetres() {
        let fixes = Self.drive()
        let r = Self.run(fixes)
        // Wherever the car is, the last position published is within 25 m + one second's drive
        // of it, and a stop is told at once.
        var p = PositionPolicy()
        var last: StatusReply.LastFix?
        var worst = 0.0
        for (i, f) in fixes.enumerated() {
            if p.offer(f, now: Double(i)) != nil { p.didPublish(f, now: Double(i)); last = f }
            if let l = last {
                let behind = l.coordinate.distance(to: f.coordinate) - (f.speedMps ?? 0)
                worst = max(worst, behind)
            }
        }
        // At road speed every fix goes: never more than one second's drive behind.
        #expect(worst <= 0.5, "\(worst) m behind")
        // A stop is told at once (the car moves off 12 m at its first fix: a move).
        #expect((r.reasons[.stopped] ?? 0) >= 15, "\(r.reasons)")
        let town = r.sent.filter { $0.time < Self.t0.addingTimeInterval(1800) }.count
        let highway = r.sent.count - town
        // A crawl (a jam at 2 m/s, wandering a little): every 10 m, so every fifth fix.
        var at = Coordinate(latitude: -30.3, longitude: 153.1)
        let crawl = (0..<600).map { s -> StatusReply.LastFix in
            at = Geodesic.direct(from: at, bearing: 90, distance: 2)
            return Self.fix(at, s, speed: 2, track: 90)
        }
        let jam = Self.run(crawl).sent.count
        #expect(jam >= 110 && jam <= 125, "\(jam) in 10 minutes")
        print("position, driving: \(r.reasons.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")); \(town * 2) messages an hour in town (12 m/s, corners, stops), \(highway * 2) on the highway "
              + "(30 m/s), \(jam * 6) in a jam (2 m/s); before: 720 an hour whatever the car did (status_interval 5 s)")
    }

    @Test func aFixIsNeverSentTwiceNorOneOlderThanTheLast() {
        var p = PositionPolicy()
        let a = Self.fix(Coordinate(latitude: 1, longitude: 1), 10, speed: 0, track: nil)
        #expect(p.offer(a, now: 0) == .first)
        p.didPublish(a, now: 0)
        #expect(p.offer(a, now: 300) == nil)                                          // the same fix, later
        let older = Self.fix(Coordinate(latitude: 2, longitude: 2), 5, speed: 0, track: nil)
        #expect(p.offer(older, now: 300) == nil)                                      // an older one, far away
        #expect(!p.heartbeatDue(now: 1000))                                           // nothing newer to say
        let newer = Self.fix(Coordinate(latitude: 1, longitude: 1), 11, speed: 0, track: nil)
        #expect(p.offer(newer, now: 100) == nil)
        #expect(p.heartbeatDue(now: 240))
    }
}
