#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// hotcold's retained `…/state` message: what the car is doing, from the daemon's `status`.
/// Its own type (the status less what a retained copy would get wrong: the ages, which are
/// stale the moment it is stored), written by the protocol's coder, so its targets are the
/// status's own `TargetState`s, field for field.
///
/// ```json
/// {"class":"STATE","seq":77,"gps":"fix","last_fix":{"lat":-30.3,"lon":153.1,"mode":3,"time":"…"},
///  "targets":[{"arrived":false,"bearing_deg":270,"distance_m":12.5,"target":{…},"tier":7,…}],"time":"…"}
/// ```
struct StateMessage: FixedClassMessage, SequencedMessage, Equatable {
    static let wireClass = "STATE"

    /// The last event the bridge had read when it asked for the status (nil when unknown), so
    /// a reader can line the state up with the event stream.
    var seq: Int?
    /// When the status was true.
    var time: Date
    /// The daemon's GPS state (`fix`, `stale`, `no_fix`, …).
    var gps: String
    /// The fix as FIX gives it (no ages).
    var lastFix: StatusReply.LastFix?
    var targets: [StatusReply.TargetState]

    init(_ s: StatusReply, seq: UInt64?) {
        self.seq = seq.flatMap { Int(exactly: $0) }
        time = s.time
        gps = s.gps.state
        lastFix = s.gps.lastFix?.withoutAges
        targets = s.ownTargets
    }

    /// The message's text (one JSON line, no newline).
    var payload: String { WireCoding.line(self) }
}

/// hotcold's retained `…/nearest` message, for Home Assistant's sensors: the nearest tracked
/// target, or only `time` when none is tracked (so the sensors show none). Distances to the
/// decimetre: a sensor's history need not move with every centimetre of jitter.
///
/// ```json
/// {"arrived":false,"distance_m":1000,"target":{…},"tier":4,"tier_name":"mild","time":"…","trend":"hotter"}
/// ```
struct NearestMessage: Codable, Sendable, Equatable {
    var time: Date
    var target: TargetRef?
    var distanceM: Double?
    var tier: Int?
    var tierName: String?
    var trend: String?
    var arrived: Bool?

    init(_ s: StatusReply) {
        time = s.time
        guard let n = s.nearest else { return }
        target = n.target
        distanceM = Finite.round(Optional(n.distanceM), 1)
        tier = n.tier
        tierName = n.tierName
        trend = n.trend
        arrived = n.arrived
    }

    /// The message's text (one JSON object, no newline).
    var payload: String {
        WireCoding.object(self)
    }
}
