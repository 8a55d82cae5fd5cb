import Foundation
import HotColdCore

/// hotcold's own topic layout. Pure: the same event gives the same messages.
///
/// - `…/event`: every event, the daemon's line (with its `seq`; re-encoded, so always well-formed), not retained;
/// - `…/visit`: ARRIVED and DEPARTED again, for subscribers that want only visits;
/// - `…/state`: retained `STATE` (last fix, tracked targets), from the daemon's `status`;
/// - `…/status`: retained `online`; `offline` is the MQTT Last Will.
public enum HotColdLayout {
    public static let online = "online"
    public static let offline = "offline"

    /// The messages for one event, in the order they are published.
    public static func publications(for e: SequencedEvent, topics: Topics) -> [Publication] {
        var out = [Publication(topic: topics.event, payload: e.line)]
        switch e.event {
        case .arrived, .departed: out.append(Publication(topic: topics.visit, payload: e.line))
        case .proximity, .gps: break
        }
        return out
    }

    /// The retained state message: `{"class":"STATE","seq":…,"gps":"fix","last_fix":{…},"targets":[…]}`.
    ///
    /// `seq` is the last event the bridge had read when it asked for the status (left out when
    /// unknown), so a reader can line the state up with the event stream.
    public static func state(_ s: StatusSnapshot, seq: UInt64?, topics: Topics) -> Publication {
        var o = JSONLine(class: "STATE")
        if let seq { o.addRaw("seq", json: String(seq)) }
        o.add("gps", s.gpsState)
        if let f = s.lastFix {
            var lf = JSONLine.object()
            lf.add("time", time: f.time)
            lf.add("lat", f.coordinate.latitude, decimals: 7)
            lf.add("lon", f.coordinate.longitude, decimals: 7)
            if let m = f.mode { lf.add("mode", m) }
            lf.addIfPresent("accuracy_m", f.accuracy, decimals: 1)
            lf.addIfPresent("speed_mps", f.speed, decimals: 2)
            o.addRaw("last_fix", json: lf.text)
        }
        var list: [String] = []
        for t in s.targets {
            var x = JSONLine.object()
            x.addRaw("target", json: t.target.json)
            x.add("distance_m", t.distance, decimals: 3)
            x.add("bearing_deg", t.bearing, decimals: 1)
            x.add("tier", t.tier)
            x.add("tier_name", t.tierName)
            x.add("trend", t.trend.rawValue)
            x.add("arrived", t.arrived)
            list.append(x.text)
        }
        o.addRaw("targets", json: "[" + list.joined(separator: ",") + "]")
        return Publication(topic: topics.state, payload: o.text, retain: true)
    }
}
