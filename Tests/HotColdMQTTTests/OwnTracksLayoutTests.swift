import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// The OwnTracks mapping, field by field, against the booklet's JSON format
/// (owntracks.org/booklet/tech/json): names, types (integer vs float) and omissions.
@Suite(.offCooperativePool) struct OwnTracksLayoutTests {
    let topics = Topics(prefix: "owntracks", user: "jane", device: "car")
    let banana = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)

    func object(_ payload: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    }

    func event(_ line: String) throws -> EventMessage { try EventMessage(bridgeLine: line) }

    @Test func arrivedBecomesAnEnterTransitionOnTheEventTopic() throws {
        let e = try event(#"{"class":"ARRIVED","seq":42,"time":"2024-11-23T07:25:04.000Z","target":{"id":"halans:d0577fb8cf","name":"Big Banana","kind":"bigthing"},"distance_m":83.1}"#)
        let waypoint = Coordinate(latitude: -30.2748, longitude: 153.1338)
        let p = try #require(OwnTracksLayout.transition(e, waypoint: waypoint, accuracy: 8.6, tid: "ar", wtst: 1_732_000_000,
                                                                     topics: topics))
        #expect(p.topic == "owntracks/jane/car/event")
        #expect(p.retain == false)
        let o = try object(p.payload)
        #expect(o["_type"] as? String == "transition")
        #expect(o["event"] as? String == "enter")
        #expect(o["desc"] as? String == "Big Banana")
        #expect(o["lat"] as? Double == -30.2748)
        #expect(o["lon"] as? Double == 153.1338)
        // acc: the fix's accuracy, an integer as the apps write it (not the distance, 83.1).
        #expect(o["acc"] as? Int == 9)
        #expect(p.payload.contains(#""acc":9,"#))
        // tst and wtst are integer epoch seconds.
        #expect(o["tst"] as? Int == 1_732_346_704)
        #expect(p.payload.contains(#""tst":1732346704,"#))
        // wtst: the region's creation time (RegionStore), the waypoint's tst on the phone.
        #expect(o["wtst"] as? Int == 1_732_000_000)
        #expect(o["t"] as? String == "c")
        #expect(o["tid"] as? String == "ar")
        #expect(o["rid"] as? String == "halans:d0577fb8cf")
        #expect(o["seq"] as? Int == 42)
        #expect(Set(o.keys) == ["_type", "event", "desc", "lat", "lon", "acc", "tst", "wtst", "t", "tid", "rid", "seq"])
        #expect(p.payload.hasPrefix(#"{"_type":"transition","#))
    }

    @Test func departedIsLeaveAndAnUnknownWaypointLeavesOutLatLon() throws {
        let e = try event(#"{"class":"DEPARTED","seq":43,"time":"2024-11-23T07:27:00.500Z","target":{"id":"GC2T9RW","name":"Cache","kind":"geocache"},"distance_m":166.2}"#)
        let p = try #require(OwnTracksLayout.transition(e, waypoint: nil, tid: "ar", wtst: 1, topics: topics))
        let o = try object(p.payload)
        #expect(o["event"] as? String == "leave")
        #expect(o["lat"] == nil && o["lon"] == nil)
        #expect(o["acc"] == nil)                        // no fix accuracy known: left out
        #expect(o["tst"] as? Int == 1_732_346_820)      // whole seconds, rounded down
        #expect(o["rid"] as? String == "GC2T9RW")
    }

    @Test func proximityAndGPSEventsHaveNoTransition() throws {
        let prox = try event(#"{"class":"PROXIMITY","seq":1,"time":"2024-11-23T07:24:31.000Z","target":{"id":"x","name":"X","kind":"point"},"distance_m":280.412,"bearing_deg":172.3,"tier":6,"tier_name":"hot","trend":"hotter"}"#)
        let gps = try event(#"{"class":"GPS","seq":2,"time":"2024-11-23T07:00:01.000Z","state":"fix"}"#)
        #expect(OwnTracksLayout.transition(prox, waypoint: nil, tid: "ar", wtst: 1, topics: topics) == nil)
        #expect(OwnTracksLayout.transition(gps, waypoint: nil, tid: "ar", wtst: 1, topics: topics) == nil)
    }

    @Test func locationFromTheLastFix() throws {
        let s = status(
            "fix",
            lastFix: .init(time: Date(timeIntervalSince1970: 1_735_689_600.9), lat: -30.3, lon: 153.1,
                           mode: 3, accuracyM: 9.5, speedMps: 10, trackDeg: 359.6),
            targets: [
                .init(target: banana, distanceM: 50, bearingDeg: 90, tier: 7, tierName: "burning", trend: "steady", arrived: true),
                .init(target: TargetRef(id: "b", name: "Far", kind: .point), distanceM: 5000, bearingDeg: 0,
                      tier: 1, tierName: "chilly", trend: "colder", arrived: false),
            ])
        let p = try #require(OwnTracksLayout.location(s, tid: "ar", topics: topics))
        #expect(p.topic == "owntracks/jane/car")
        #expect(p.retain)
        let o = try object(p.payload)
        #expect(o["_type"] as? String == "location")
        #expect(o["lat"] as? Double == -30.3)
        #expect(o["lon"] as? Double == 153.1)
        #expect(o["tst"] as? Int == 1_735_689_600)
        #expect(o["acc"] as? Int == 10)                      // integer metres (9.5 rounds to 10)
        #expect(o["vel"] as? Int == 36)                      // integer km/h
        #expect(!p.payload.contains(#""vel":36."#))
        #expect(o["tid"] as? String == "ar")
        #expect(o["cog"] as? Int == 0)                       // integer degrees, 359.6 → 360 → 0
        #expect(o["inregions"] as? [String] == ["Big Banana"])
        #expect(o["inrids"] as? [String] == ["halans:d0577fb8cf"])
        #expect(Set(o.keys) == ["_type", "lat", "lon", "tst", "acc", "vel", "cog", "tid", "inregions", "inrids"])
        // A follower's bridge reads this car's message with the same type: the same position.
        let read = try #require(try FriendFixRequest.ownTracks(Array(p.payload.utf8), who: FriendID(parsing: "jane/car")!,
                                                                now: Date(timeIntervalSince1970: 1_735_689_660)))
        #expect(read.lat == -30.3 && read.lon == 153.1 && read.accuracyM == 10 && read.speedMps == 10)
        #expect(read.time == Date(timeIntervalSince1970: 1_735_689_600))
        // Fields a position does not need are not read: an app's own `tid` type is its business.
        let odd = p.payload.replacingOccurrences(of: #""tid":"ar""#, with: #""tid":7"#)
        #expect(try FriendFixRequest.ownTracks(Array(odd.utf8), who: FriendID(parsing: "jane/car")!,
                                               now: Date(timeIntervalSince1970: 1_735_689_660))?.lat == -30.3)
    }

    @Test func locationLeavesOutZeroAndUnknownValues() throws {
        let s = status("fix", lastFix: .init(time: Date(timeIntervalSince1970: 100), lat: 1, lon: 2, mode: 2, accuracyM: nil, speedMps: 0.1),
                       targets: [])
        let o = try object(try #require(OwnTracksLayout.location(s, tid: "ar", topics: topics)).payload)
        #expect(o["acc"] == nil && o["vel"] == nil && o["cog"] == nil && o["inregions"] == nil && o["inrids"] == nil)
        #expect(OwnTracksLayout.location(status("nofix", lastFix: nil, targets: []), tid: "ar", topics: topics) == nil)
    }

    @Test func setWaypointsIsACmdWithOneCircularRegionPerPlaceAtItsOwnCoordinates() throws {
        let place = PhoneRegions.Place(id: banana.id, name: "Big Banana: the original", at: Coordinate(latitude: -30.2748123, longitude: 153.1338456),
                                       distance: 10)
        let p = OwnTracksLayout.setWaypoints([OwnTracksLayout.waypoint(place, radius: 100, tst: 1_700_000_123)],
                                             phoneTopic: "owntracks/jane/phone")
        #expect(p.topic == "owntracks/jane/phone/cmd")
        #expect(!p.retain)
        let o = try object(p.payload)
        #expect(o["_type"] as? String == "cmd" && o["action"] as? String == "setWaypoints")
        let inner = try #require(o["waypoints"] as? [String: Any])
        #expect(inner["_type"] as? String == "waypoints")
        let w = try #require((inner["waypoints"] as? [[String: Any]])?.first)
        #expect(w["_type"] as? String == "waypoint")
        // iOS reads NAME:UUID:MAJOR:MINOR from desc: a colon in a name must not make a beacon.
        #expect(w["desc"] as? String == "Big Banana\u{A789} the original")
        #expect(w["lat"] as? Double == -30.2748123 && w["lon"] as? Double == 153.1338456)
        #expect(w["rad"] as? Int == 100)
        #expect(w["tst"] as? Int == 1_700_000_123)
        #expect(w["rid"] as? String == "halans:d0577fb8cf")
        // The iOS removal: the same rid with a position out of range.
        let gone = try object(OwnTracksLayout.waypoint(place, radius: 100, tst: 1_700_000_123, remove: true).payload)
        #expect(gone["lat"] as? Int == -1_000_000 && gone["lon"] as? Int == -1_000_000 && gone["rid"] as? String == banana.id)
        #expect(OwnTracksLayout.clearWaypoints(phoneTopic: "owntracks/jane/phone").payload == #"{"_type":"cmd","action":"clearWaypoints"}"#)
    }

    @Test func lastWillIsLWTWithTheConnectTime() throws {
        let p = OwnTracksLayout.lastWill(connectedAt: Date(timeIntervalSince1970: 1_700_000_000.7), topics: topics)
        #expect(p.topic == "owntracks/jane/car")
        #expect(p.payload == #"{"_type":"lwt","tst":1700000000}"#)
    }

    @Test func trackerIDDefaultsToTheDevicesLastTwoCharacters() {
        #expect(OwnTracksLayout.defaultTrackerID(device: "car") == "ar")
        #expect(OwnTracksLayout.defaultTrackerID(device: "x") == "x")
    }
}
