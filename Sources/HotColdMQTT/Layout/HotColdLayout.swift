#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// hotcold's own topic layout. Pure: the same event gives the same messages.
///
/// - `…/event`: every event, the daemon's line (with its `seq`; re-encoded, so always well-formed), not retained;
/// - `…/visit`: ARRIVED and DEPARTED again, for subscribers that want only visits;
/// - `…/state`: retained `STATE` (last fix, tracked targets), from the daemon's `status`;
/// - `…/status`: retained `online`; `offline` is the MQTT Last Will;
/// - `…/location`, `…/nearest`, `…/arrival`: retained, small, for Home Assistant's entities.
///
/// Every retained message carries `time`, when it was true, so a reader given an old one (a
/// bridge that went away without its Last Will reaching anyone) can tell.
public enum HotColdLayout {
    public static let online = "online"
    public static let offline = "offline"

    /// The messages for one event, in the order they are published.
    public static func publications(for e: EventMessage, topics: Topics) -> [Publication] {
        var out = [Publication(topic: topics.event, payload: e.line)]
        switch e.event {
        case .arrived:
            out.append(Publication(topic: topics.visit, payload: e.line))
            out.append(Publication(topic: topics.arrival, payload: e.line, retain: true))
        case .departed: out.append(Publication(topic: topics.visit, payload: e.line))
        case .proximity, .gps: break
        }
        return out
    }

    /// The retained state message: `{"class":"STATE","seq":…,"gps":"fix","last_fix":{…},"targets":[…]}`.
    ///
    /// `seq` is the last event the bridge had read when it asked for the status (left out when
    /// unknown), so a reader can line the state up with the event stream.
    public static func state(_ s: StatusReply, seq: UInt64?, topics: Topics) -> Publication {
        var o = JSONLine(class: "STATE")
        if let seq { o.addRaw("seq", json: String(seq)) }
        o.add("time", time: s.time)
        o.add("gps", s.gps.state)
        // The fix as FIX gives it (the status's ages would be stale in a retained message).
        if let f = s.gps.lastFix, let body = try? WireCoding.encoder().encode(f.withoutAges) {
            o.addRaw("last_fix", json: String(decoding: body, as: UTF8.self))
        }
        var list: [String] = []
        for t in s.ownTargets {
            var x = JSONLine.object()
            x.addRaw("target", json: t.target.json)
            x.add("distance_m", t.distanceM, decimals: 3)
            x.add("bearing_deg", t.bearingDeg, decimals: 1)
            x.add("tier", t.tier)
            x.add("tier_name", t.tierName)
            x.add("trend", t.trend)
            x.add("arrived", t.arrived)
            list.append(x.text)
        }
        o.addRaw("targets", json: "[" + list.joined(separator: ",") + "]")
        return Publication(topic: topics.state, payload: o.text, retain: true)
    }

    /// `{"time":…,"latitude":…,"longitude":…,"gps_accuracy":…}`: Home Assistant's device
    /// tracker attributes, from the last fix (`time`: the fix's). Nil without a fix.
    public static func location(_ s: StatusReply, topics: Topics) -> Publication? {
        s.gps.lastFix.map { location($0, topics: topics) }
    }

    /// The same for one fix (the daemon's FIX stream).
    public static func location(_ f: StatusReply.LastFix, topics: Topics) -> Publication {
        let m = LocationMessage(time: f.time, latitude: f.lat, longitude: f.lon, gpsAccuracy: f.accuracyM ?? 0, speedMps: f.speedMps)
        return Publication(topic: topics.location, payload: m.payload, retain: true,
                           expirySeconds: UInt32(FriendLimits.fixMaxAge))
    }

    /// The nearest tracked target, `{"time":…,"target":{…},"distance_m":…,"tier_name":…,"trend":…}`
    /// (`time`: the status's); with no target tracked, `{"time":…}` so sensors show none.
    public static func nearest(_ s: StatusReply, topics: Topics) -> Publication {
        var o = JSONLine.object()
        o.add("time", time: s.time)
        if let n = s.nearest {
            o.addRaw("target", json: n.target.json)
            o.add("distance_m", n.distanceM, decimals: 1)
            o.add("tier", n.tier)
            o.add("tier_name", n.tierName)
            o.add("trend", n.trend)
            o.add("arrived", n.arrived)
        }
        return Publication(topic: topics.nearest, payload: o.text, retain: true)
    }
}
