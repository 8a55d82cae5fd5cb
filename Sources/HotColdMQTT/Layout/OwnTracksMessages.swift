#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The OwnTracks messages the bridge writes (`location` is ``OwnTracksLocation``, which reads
/// too): one type each, written by one coder (``OwnTracksMessage/payload``: keys sorted, so `_type` comes
/// first and the same message is the same bytes). Field names and types are the booklet's
/// (owntracks.org/booklet/tech/json); what each field holds is said in ``OwnTracksLayout``.
protocol OwnTracksMessage: Encodable {}

extension OwnTracksMessage {
    /// The message's text (one JSON object, no newline).
    var payload: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// `_type: transition`: entering or leaving a region (an ARRIVED or DEPARTED).
struct OwnTracksTransition: OwnTracksMessage, Equatable {
    /// `enter` or `leave`.
    var event: String
    var desc: String
    /// The region's centre, 7 decimals; nil while the bridge does not know where it lies.
    var lat: Double?
    var lon: Double?
    /// Integer metres.
    var acc: Int?
    var tst: Int
    var wtst: Int
    var tid: String
    var rid: String
    /// hotcold's addition: the daemon's sequence number.
    var seq: Int?

    enum CodingKeys: String, CodingKey { case type = "_type", event, desc, lat, lon, acc, tst, wtst, t, tid, rid, seq }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("transition", forKey: .type)
        try c.encode(event, forKey: .event)
        try c.encode(desc, forKey: .desc)
        try c.encodeIfPresent(lat, forKey: .lat)
        try c.encodeIfPresent(lon, forKey: .lon)
        try c.encodeIfPresent(acc, forKey: .acc)
        try c.encode(tst, forKey: .tst)
        try c.encode(wtst, forKey: .wtst)
        // A circular region: the only kind hotcold has.
        try c.encode("c", forKey: .t)
        try c.encode(tid, forKey: .tid)
        try c.encode(rid, forKey: .rid)
        try c.encodeIfPresent(seq, forKey: .seq)
    }
}

/// `_type: waypoint`: one region of a `setWaypoints` command.
public struct OwnTracksWaypoint: OwnTracksMessage, Equatable {
    var desc: String
    /// 7 decimals; out of range (``OwnTracksLayout/removedCoordinate``) for iOS's removal.
    var lat: Double
    var lon: Double
    /// Integer metres.
    var rad: Int
    var tst: Int
    var rid: String

    enum CodingKeys: String, CodingKey { case type = "_type", desc, lat, lon, rad, tst, rid }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("waypoint", forKey: .type)
        try c.encode(desc, forKey: .desc)
        try c.encode(lat, forKey: .lat)
        try c.encode(lon, forKey: .lon)
        try c.encode(rad, forKey: .rad)
        try c.encode(tst, forKey: .tst)
        try c.encode(rid, forKey: .rid)
    }
}

/// `_type: cmd` on a phone's `…/cmd` topic: `setWaypoints` (with its regions) or
/// `clearWaypoints`.
struct OwnTracksCommand: OwnTracksMessage, Equatable {
    enum Action: String { case setWaypoints, clearWaypoints }
    var action: Action
    var waypoints: [OwnTracksWaypoint]

    enum CodingKeys: String, CodingKey { case type = "_type", action, waypoints }
    enum ListKeys: String, CodingKey { case type = "_type", waypoints }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("cmd", forKey: .type)
        try c.encode(action.rawValue, forKey: .action)
        guard action == .setWaypoints else { return }
        // The booklet's nesting: {"_type":"waypoints","waypoints":[…]}.
        var list = c.nestedContainer(keyedBy: ListKeys.self, forKey: .waypoints)
        try list.encode("waypoints", forKey: .type)
        try list.encode(waypoints, forKey: .waypoints)
    }
}

/// `_type: lwt`: the Last Will, `tst` when the bridge connected.
struct OwnTracksLastWill: OwnTracksMessage, Equatable {
    var tst: Int

    enum CodingKeys: String, CodingKey { case type = "_type", tst }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("lwt", forKey: .type)
        try c.encode(tst, forKey: .tst)
    }
}
