#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
///   OwnTracks' own waypoints do); left out while the bridge does not yet know where it lies.
///   `wtst` is the region's creation time, the same `tst` its waypoint carries on the phone
///   (`RegionStore`). `seq` (the daemon's sequence number) is a hotcold addition that
///   OwnTracks readers ignore and that makes duplicates recognisable.
/// - The Last Will is `_type: lwt` (with `tst`, when the bridge connected) on the device topic.
public enum OwnTracksLayout {
    /// The `location` message for the last fix of a status, or nil without a fix.
    public static func location(_ s: StatusReply, tid: String, topics: Topics) -> Publication? {
        guard let f = s.gps.lastFix else { return nil }
        return location(f, inside: s.targets.filter(\.arrived).map(\.target), tid: tid, topics: topics)
    }

    /// The `location` message for one fix; `inside`: the targets the car is at (`inregions`,
    /// `inrids`); `ping`: a heartbeat while the car stands (`t: "p"`, the booklet's trigger for
    /// a report the app makes on a timer; left out for a report the car's movement caused).
    static func location(_ f: StatusReply.LastFix, inside: [TargetRef], tid: String, topics: Topics,
                                ping: Bool = false) -> Publication {
        var m = OwnTracksLocation(
            lat: f.lat, lon: f.lon, tst: Double(epochSeconds(f.time)),
            acc: f.accuracyM.flatMap(wholeNumber).flatMap { $0 != 0 ? Double($0) : nil },
            vel: f.speedMps.flatMap { wholeNumber($0 * 3.6) }.flatMap { $0 != 0 ? Double($0) : nil },
            cog: f.trackDeg.flatMap(wholeNumber).map { Double($0 % 360) },
            tid: tid,
            inregions: inside.isEmpty ? nil : inside.map(\.name),
            inrids: inside.isEmpty ? nil : inside.map(\.id))
        if ping { m.t = "p" }
        return Publication(topic: topics.base, payload: m.payload, retain: true)
    }

    /// The `transition` message for an ARRIVED or DEPARTED event; nil for other events.
    /// `accuracy`: the last fix's, in metres (nil: unknown, `acc` left out).
    public static func transition(_ e: EventMessage, waypoint: Coordinate?, accuracy: Double? = nil, tid: String,
                                  wtst: Int, topics: Topics) -> Publication? {
        let passage: Event.Passage, kind: String
        switch e.event {
        case .arrived(let p): (passage, kind) = (p, "enter")
        case .departed(let p): (passage, kind) = (p, "leave")
        case .proximity, .gps: return nil
        }
        let m = OwnTracksTransition(
            event: kind, desc: passage.target.name,
            lat: waypoint.map { Finite.round($0.latitude, 7) }, lon: waypoint.map { Finite.round($0.longitude, 7) },
            acc: accuracy.flatMap(wholeNumber).flatMap { $0 >= 0 ? $0 : nil },
            tst: epochSeconds(passage.time), wtst: wtst, tid: tid, rid: passage.target.id, seq: e.seq)
        return Publication(topic: topics.event, payload: m.payload)
    }

    /// The latitude and longitude of a waypoint that removes its region (the booklet: iOS
    /// deletes the region whose waypoint comes with an out-of-range position; Android ignores
    /// such a waypoint).
    static let removedCoordinate = -1_000_000

    /// One waypoint of a `setWaypoints` command: `desc` (the place's name), `lat`/`lon` (its own
    /// coordinates, 7 decimals), `rad` (integer metres), `tst` (the region's creation time:
    /// Android's key), `rid` (the place's id: iOS's key). `remove`: the iOS removal, with
    /// `lat`/`lon` out of range.
    public static func waypoint(_ p: PhoneRegions.Place, radius: Int, tst: Int, remove: Bool = false) -> OwnTracksWaypoint {
        OwnTracksWaypoint(desc: regionName(p.name),
                          lat: remove ? Double(removedCoordinate) : Finite.round(p.lat, 7),
                          lon: remove ? Double(removedCoordinate) : Finite.round(p.lon, 7),
                          rad: radius, tst: tst, rid: p.id)
    }

    /// `{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[…]}}`
    /// on `<phone>/cmd`: merged into the phone's regions.
    public static func setWaypoints(_ waypoints: [OwnTracksWaypoint], phoneTopic: String) -> Publication {
        Publication(topic: phoneTopic + "/cmd", payload: OwnTracksCommand(action: .setWaypoints, waypoints: waypoints).payload)
    }

    /// `{"_type":"cmd","action":"clearWaypoints"}`: the phone drops every region (Android
    /// 2.5.0 on, iOS 16.4.3 on).
    static func clearWaypoints(phoneTopic: String) -> Publication {
        Publication(topic: phoneTopic + "/cmd", payload: OwnTracksCommand(action: .clearWaypoints, waypoints: []).payload)
    }

    /// The commands that take the phone from what it held to `change.set` (see `PhoneRegions`
    /// for why each app gets what it gets), in the order they must arrive.
    static func commands(for change: PhoneRegions.Change, app: PhoneRegions.App, radius: Int,
                                stamp: (String) -> Int, phoneTopic: String) -> [Publication] {
        switch app {
        case .android:
            if change.removed.isEmpty {
                return [setWaypoints(change.added.map { waypoint($0, radius: radius, tst: stamp($0.id)) }, phoneTopic: phoneTopic)]
            }
            return [clearWaypoints(phoneTopic: phoneTopic),
                    setWaypoints(change.set.map { waypoint($0, radius: radius, tst: stamp($0.id)) }, phoneTopic: phoneTopic)]
        case .ios:
            let gone = change.removed.map { waypoint($0, radius: radius, tst: stamp($0.id), remove: true) }
            let new = change.added.map { waypoint($0, radius: radius, tst: stamp($0.id)) }
            return [setWaypoints(gone + new, phoneTopic: phoneTopic)]
        }
    }

    /// A place's name as a region's `desc`: iOS reads `NAME:UUID:MAJOR:MINOR` from it (beacon
    /// regions), so a colon in a name would cut it and make a beacon; it becomes "꞉" (U+A789).
    static func regionName(_ name: String) -> String {
        name.replacingOccurrences(of: ":", with: "\u{A789}")
    }

    /// The Last Will: `{"_type":"lwt","tst":…}` (`tst`: when the bridge connected).
    static func lastWill(connectedAt: Date, topics: Topics) -> Publication {
        Publication(topic: topics.base, payload: OwnTracksLastWill(tst: epochSeconds(connectedAt)).payload)
    }

    /// The OwnTracks tracker id when the configuration gives none: the device name's last two
    /// characters, as the apps do.
    static func defaultTrackerID(device: String) -> String { String(device.suffix(2)) }

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
