import Foundation
import HotColdCore
import HotColdProtocol

/// A daemon `STATUS` reply with only what the bridge reads filled in: the GPS state, the last
/// fix and the tracked targets (the counters and the rest are zero).
func status(_ gpsState: String, lastFix: StatusReply.LastFix?, targets: [StatusReply.TargetState],
            time: Date = Date(timeIntervalSince1970: 1_735_689_600)) -> StatusReply {
    StatusReply(time: time, uptimeS: 1, gps: .init(link: "connected", state: gpsState, lastFix: lastFix),
                tracking: .init(mode: "roam", candidates: targets.count, tracked: targets.count), targets: targets,
                counters: .init(fixes: 0, fixesAccepted: 0, fixesUntimed: 0, outliers: 0, outOfOrder: 0, events: 0, visitErrors: 0),
                latencyUs: .init(samples: 0, p50: 0, p99: 0, max: 0))
}
