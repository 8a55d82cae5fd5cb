import Foundation
import HotColdCore
import HotColdProtocol
@testable import HotColdScreen

/// Models built the way the shell builds them: from a STATUS reply and events.
enum ScreenFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_735_689_600)

    static func target(_ id: String, _ name: String, _ distance: Double, bearing: Double = 45, tier: Int,
                       tierName: String, trend: String = "hotter", arrived: Bool = false) -> StatusReply.TargetState {
        StatusReply.TargetState(target: TargetRef(id: id, name: name, kind: .bigThing), distanceM: distance,
                                bearingDeg: bearing, tier: tier, tierName: tierName, trend: trend, arrived: arrived)
    }

    static func status(_ targets: [StatusReply.TargetState], speed: Double? = 0.2, track: Double? = nil,
                       tiers: [String]? = nil) -> StatusReply {
        StatusReply(
            time: t0, uptimeS: 60,
            gps: .init(link: "connected", state: "fix",
                       lastFix: .init(time: t0, lat: -30.3, lon: 153.1, mode: 3, accuracyM: 5, speedMps: speed,
                                      trackDeg: track, satellites: 9)),
            tracking: .init(mode: "hunt", candidates: targets.count, tracked: targets.count, tiers: tiers), targets: targets,
            counters: .init(fixes: 1, fixesAccepted: 1, fixesUntimed: 0, outliers: 0, outOfOrder: 0, events: 0, visitErrors: 0),
            latencyUs: .init(samples: 0, p50: 0, p99: 0, max: 0))
    }

    /// Big Banana 850 m NE, hot and getting hotter, ETA 2 min; three more behind it; the fix 3 s old.
    static func hunt(name: String = "Big Banana") -> ScreenModel {
        var m = ScreenModel(socketPath: "/tmp/hc.sock", now: t0)
        m.apply(status([
            target("a", name, 850, tier: 6, tierName: "hot"),
            target("b", "Big Prawn", 4_500, bearing: 0, tier: 3, tierName: "cool", trend: "colder"),
            target("c", "Big Pineapple", 12_000, bearing: 180, tier: 0, tierName: "freezing", trend: "steady"),
            target("d", "Giant Koala", 2_000, bearing: 270, tier: 3, tierName: "cool", trend: "unknown"),
        ]))
        m.apply(.proximity(.init(time: t0, target: TargetRef(id: "a", name: name, kind: .bigThing), distance: 850,
                                 bearing: 45, tier: 6, tierName: "hot", trend: .hotter, accuracy: 5,
                                 speed: 0.2, eta: 120)))
        m.now = t0.addingTimeInterval(3)
        return m
    }

    /// The text without SGR escapes.
    static func strip(_ s: String) -> String {
        s.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
