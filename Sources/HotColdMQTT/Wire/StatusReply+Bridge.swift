import Foundation
import HotColdCore
import HotColdProtocol

/// What the bridge reads from a daemon `STATUS` reply: the protocol's own `StatusReply`, checked.
///
/// The daemon's events carry no position, so the bridge asks for `status` (throttled) to publish
/// the retained state (hotcold layout) and OwnTracks `location` messages, and to learn where
/// each tracked target lies (from the fix, the bearing and the distance) for OwnTracks
/// transitions.
extension StatusReply {
    /// Most targets the bridge keeps from one status (a roam can track hundreds; the state
    /// message stays bounded). A daemon sends at most `Limits.statusTargets`; this holds against
    /// one that does not.
    public static let bridgeTargets = 1000

    /// Reads a `STATUS` line for the bridge: decoded by the protocol's type, ranges checked once
    /// (`checked()`), targets capped. Throws naming the field that is missing or out of range.
    public init(bridgeLine line: String) throws(WireError) {
        do {
            self = try WireCoding.decode(StatusReply.self, from: line).checked()
        } catch {
            throw WireError("STATUS: \(error.message)")
        }
        if targets.count > Self.bridgeTargets { targets = Array(targets.prefix(Self.bridgeTargets)) }
    }

    /// Where each tracked target lies, found from the last fix along its bearing and distance
    /// (the status gives no target coordinates). Good to a few metres at 10 km (the bearing
    /// has one decimal), to centimetres near the target.
    public var targetCoordinates: [String: Coordinate] {
        guard let fix = gps.lastFix else { return [:] }
        var out: [String: Coordinate] = [:]
        for t in targets {
            out[t.target.id] = Geodesic.direct(from: fix.coordinate, bearing: t.bearingDeg, distance: t.distanceM)
        }
        return out
    }

    /// The tracked target nearest now (in a hunt of one: the hunted one).
    public var nearest: TargetState? { targets.min { $0.distanceM < $1.distanceM } }
}
