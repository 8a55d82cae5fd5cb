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
    static let online = "online"
    static let offline = "offline"

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

    /// The retained state message (``StateMessage``): `seq` is the last event the bridge had
    /// read when it asked for the status (left out when unknown).
    public static func state(_ s: StatusReply, seq: UInt64?, topics: Topics) -> Publication {
        Publication(topic: topics.state, payload: StateMessage(s, seq: seq).payload, retain: true)
    }

    /// `{"time":…,"latitude":…,"longitude":…,"gps_accuracy":…}`: Home Assistant's device
    /// tracker attributes, from the last fix (`time`: the fix's). Nil without a fix.
    public static func location(_ s: StatusReply, topics: Topics) -> Publication? {
        s.gps.lastFix.map { location($0, topics: topics) }
    }

    /// The same for one fix (the daemon's FIX stream).
    static func location(_ f: StatusReply.LastFix, topics: Topics) -> Publication {
        let m = LocationMessage(time: f.time, latitude: f.lat, longitude: f.lon, gpsAccuracy: f.accuracyM ?? 0, speedMps: f.speedMps)
        return Publication(topic: topics.location, payload: m.payload, retain: true,
                           expirySeconds: UInt32(FriendLimits.fixMaxAge))
    }

    /// The nearest tracked target (``NearestMessage``); with none tracked, only `time`.
    public static func nearest(_ s: StatusReply, topics: Topics) -> Publication {
        Publication(topic: topics.nearest, payload: NearestMessage(s).payload, retain: true)
    }
}
