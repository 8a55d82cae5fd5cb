#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// What the bridge reads from a daemon `STATUS` reply: the protocol's own `StatusReply`, checked.
///
/// The bridge asks for `status` (every `status_interval`, and at once after a visit or a GPS
/// change) for the nearest target and the retained state (hotcold layout), and for where each
/// tracked target lies (its own `lat`/`lon`, protocol 1.9) for the phone's regions and OwnTracks
/// transitions. Positions come from the FIX stream, as the fixes come.
extension StatusReply {
    /// Most targets the bridge keeps from one status (a roam can track hundreds; the state
    /// message stays bounded). A daemon sends at most `Limits.statusTargets`; this holds against
    /// one that does not.
    static let bridgeTargets = 1000

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

    /// The tracked place nearest now (in a hunt of one: the hunted one); never a friend on the
    /// radar (where a friend is, is the friend's to share).
    var nearest: TargetState? { ownTargets.min { $0.distanceM < $1.distanceM } }

    /// The tracked targets that are places, not friends: what the car's own state shares.
    var ownTargets: [TargetState] { targets.filter { $0.target.kind != SharedPublications.friendKind } }
}
