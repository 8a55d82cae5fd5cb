import Foundation
import HotColdCore
import HotColdProtocol

/// OwnTracks' JSON format (owntracks.org/booklet/tech/json), so that OwnTracks Recorder, Home
/// Assistant's OwnTracks integration and Node-RED flows take hotcold's positions and visits as
/// they take a phone's. Pure functions; field names and types follow the booklet:
///
/// - `_type: location` on `owntracks/<user>/<device>` (retained, as the apps do): `lat`, `lon`
///   (float degrees), `tst` (integer epoch seconds of the fix), `acc` (integer metres) and `vel`
///   (integer km/h) only when known and not zero, `cog` (integer degrees) when the receiver
///   reports a course, `tid`, and `inregions`/`inrids` (the names and ids of targets the device
///   is at) when there are any. Built from the daemon's `status`; `tst` says when it was true.
/// - `_type: transition` on `…/event` (not retained) for ARRIVED (`event: enter`) and DEPARTED
///   (`event: leave`): `desc` (the target's name), `tst` (the event's time), `t: "c"` (a circular
///   region), `tid`, `rid` (the target's id), `acc` (integer metres: the accuracy of the last fix,
///   as the apps write it; left out when unknown), and `lat`/`lon`: a hotcold event carries no
///   position, so the bridge sends **the target's coordinates** (the region's centre, as
///   OwnTracks' own waypoints do); left out while the bridge does not yet know where it lies. `wtst` is the waypoint's creation time
///   in OwnTracks, used there as the waypoint's identifier; hotcold targets have none, so it is
///   a number fixed by the target id (FNV-1a, 31 bits). `seq` (the daemon's sequence number) is
///   a hotcold addition that OwnTracks readers ignore and that makes duplicates recognisable.
/// - The Last Will is `_type: lwt` (with `tst`, when the bridge connected) on the device topic.
public enum OwnTracksLayout {
    /// The `location` message for the last fix of a status, or nil without a fix.
    public static func location(_ s: StatusReply, tid: String, topics: Topics) -> Publication? {
        guard let f = s.gps.lastFix else { return nil }
        let inside = s.targets.filter(\.arrived)
        let m = OwnTracksLocation(
            lat: f.lat, lon: f.lon, tst: Double(epochSeconds(f.time)),
            acc: f.accuracyM.flatMap(wholeNumber).flatMap { $0 != 0 ? Double($0) : nil },
            vel: f.speedMps.flatMap { wholeNumber($0 * 3.6) }.flatMap { $0 != 0 ? Double($0) : nil },
            cog: f.trackDeg.flatMap(wholeNumber).map { Double($0 % 360) },
            tid: tid,
            inregions: inside.isEmpty ? nil : inside.map(\.target.name),
            inrids: inside.isEmpty ? nil : inside.map(\.target.id))
        return Publication(topic: topics.base, payload: m.payload, retain: true)
    }

    /// The `transition` message for an ARRIVED or DEPARTED event; nil for other events.
    /// `accuracy`: the last fix's, in metres (nil: unknown, `acc` left out).
    public static func transition(_ e: EventMessage, waypoint: Coordinate?, accuracy: Double? = nil, tid: String,
                                  topics: Topics) -> Publication? {
        let passage: Event.Passage, kind: String
        switch e.event {
        case .arrived(let p): (passage, kind) = (p, "enter")
        case .departed(let p): (passage, kind) = (p, "leave")
        case .proximity, .gps: return nil
        }
        var o = JSONLine.object()
        o.add("_type", "transition")
        o.add("event", kind)
        o.add("desc", passage.target.name)
        if let w = waypoint {
            o.add("lat", w.latitude, decimals: 7)
            o.add("lon", w.longitude, decimals: 7)
        }
        if let a = accuracy, let acc = wholeNumber(a), acc >= 0 { o.add("acc", acc) }
        o.add("tst", epochSeconds(passage.time))
        o.add("wtst", waypointStamp(passage.target.id))
        o.add("t", "c")
        o.add("tid", tid)
        o.add("rid", passage.target.id)
        if let seq = e.seq { o.addRaw("seq", json: String(seq)) }
        return Publication(topic: topics.event, payload: o.text)
    }

    /// A `setWaypoints` command for a phone running OwnTracks (`<phone>/cmd`): the given
    /// targets as circular regions of `radius` metres, so the phone's regions follow the car.
    /// Each waypoint's `tst` is `waypointStamp(id)`: the apps identify a waypoint by it, so
    /// sending the same target again updates it rather than adding a copy.
    public static func setWaypoints(_ targets: [(ref: TargetRef, at: Coordinate)], radius: Int, phoneTopic: String) -> Publication {
        let list = targets.map { t -> String in
            var w = JSONLine.object()
            w.add("_type", "waypoint")
            w.add("desc", t.ref.name)
            w.add("lat", t.at.latitude, decimals: 7)
            w.add("lon", t.at.longitude, decimals: 7)
            w.add("rad", radius)
            w.add("tst", waypointStamp(t.ref.id))
            w.add("rid", t.ref.id)
            return w.text
        }
        var o = JSONLine.object()
        o.add("_type", "cmd")
        o.add("action", "setWaypoints")
        o.addRaw("waypoints", json: #"{"_type":"waypoints","waypoints":["# + list.joined(separator: ",") + "]}")
        return Publication(topic: phoneTopic + "/cmd", payload: o.text)
    }

    /// The Last Will: `{"_type":"lwt","tst":…}` (`tst`: when the bridge connected).
    public static func lastWill(connectedAt: Date, topics: Topics) -> Publication {
        var o = JSONLine.object()
        o.add("_type", "lwt")
        o.add("tst", epochSeconds(connectedAt))
        return Publication(topic: topics.base, payload: o.text)
    }

    /// The OwnTracks tracker id when the configuration gives none: the device name's last two
    /// characters, as the apps do.
    public static func defaultTrackerID(device: String) -> String { String(device.suffix(2)) }

    /// A stand-in for `wtst`: FNV-1a over the target id's UTF-8, folded to 31 bits, so it is
    /// the same on every bridge and every run and fits any signed 32-bit reader.
    public static func waypointStamp(_ id: String) -> Int {
        var h: UInt32 = 0x811C_9DC5
        for b in id.utf8 {
            h ^= UInt32(b)
            h = h &* 0x0100_0193
        }
        return Int(h & 0x7FFF_FFFF)
    }

    /// Whole epoch seconds (floor); times come from checked ISO-8601 parsing, so in range.
    static func epochSeconds(_ t: Date) -> Int {
        wholeNumber(t.timeIntervalSince1970.rounded(.down)) ?? 0
    }

    /// A finite value rounded to the nearest integer, or nil when it would not fit.
    static func wholeNumber(_ v: Double) -> Int? {
        guard v.isFinite, abs(v) < 9.0e15 else { return nil }
        return Int(v.rounded())
    }
}
