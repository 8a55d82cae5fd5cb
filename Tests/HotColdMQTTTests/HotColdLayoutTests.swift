import Foundation
import HotColdCore
@testable import HotColdMQTT
@testable import HotColdProtocol
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct HotColdLayoutTests {
    let topics = Topics(prefix: "hotcold", user: "jane", device: "car")

    @Test func everyEventGoesVerbatimToTheEventTopicAndVisitsAlsoToVisit() throws {
        let arrived = #"{"class":"ARRIVED","seq":9,"distance_m":83.1,"target":{"id":"a","kind":"point","name":"A"},"time":"2024-11-23T07:25:04.000Z"}"#
        let pubs = HotColdLayout.publications(for: try EventMessage(bridgeLine: arrived), topics: topics)
        #expect(pubs == [Publication(topic: "hotcold/jane/car/event", payload: arrived),
                         Publication(topic: "hotcold/jane/car/visit", payload: arrived),
                         Publication(topic: "hotcold/jane/car/arrival", payload: arrived, retain: true)])
        let gps = #"{"class":"GPS","seq":10,"state":"stale","time":"2024-11-23T07:25:05.000Z"}"#
        #expect(HotColdLayout.publications(for: try EventMessage(bridgeLine: gps), topics: topics)
                == [Publication(topic: "hotcold/jane/car/event", payload: gps)])
        // Events are never retained; the last arrival is state (Home Assistant's sensor).
        #expect(pubs.filter(\.retain).map(\.topic) == ["hotcold/jane/car/arrival"])
    }

    /// Found by fuzzing (target daemon-lines): JSONDecoder skips a field it does not decode
    /// without checking its value, so a broken line reached subscribers as it was. The bridge
    /// publishes the daemon's encoding of what it decoded: a real daemon's line is unchanged
    /// (above), a broken or extended one comes out well-formed without the unknown field.
    @Test func whatIsPublishedIsAlwaysWellFormedJSON() throws {
        let broken = #"{"class":"GPS","seq":10,"time":"2024-11-23T07:25:05.000Z","state":"stale","x_new":7.632.395}"#
        let e = try EventMessage(bridgeLine: broken)
        let payload = try #require(HotColdLayout.publications(for: e, topics: topics).first?.payload)
        #expect(payload == #"{"class":"GPS","seq":10,"state":"stale","time":"2024-11-23T07:25:05.000Z"}"#)
        #expect((try? JSONSerialization.jsonObject(with: Data(payload.utf8))) != nil)
    }

    @Test func stateIsRetainedWithTheLastFixAndTargets() throws {
        let s = status("fix",
                       lastFix: .init(time: Date(timeIntervalSince1970: 1_735_689_600), lat: -30.3, lon: 153.1,
                                      mode: 3, accuracyM: 4.2, speedMps: 1.25, ageS: 1, clockOffsetS: 0),
                       targets: [.init(target: TargetRef(id: "a", name: "A", kind: .point), distanceM: 12.5, bearingDeg: 270,
                                       tier: 7, tierName: "burning", trend: "hotter", arrived: true)],
                       time: Date(timeIntervalSince1970: 1_735_689_601))
        let p = HotColdLayout.state(s, seq: 77, topics: topics)
        #expect(p.topic == "hotcold/jane/car/state")
        #expect(p.retain)
        // Written by the protocol's coder: class and seq first, then the keys sorted; the
        // targets are the status's TargetState, the same keys and rounding.
        #expect(p.payload == #"{"class":"STATE","seq":77,"gps":"fix","last_fix":{"accuracy_m":4.2,"lat":-30.3,"lon":153.1,"mode":3,"speed_mps":1.25,"time":"2025-01-01T00:00:00.000Z"},"targets":[{"arrived":true,"bearing_deg":270,"distance_m":12.5,"target":{"id":"a","kind":"point","name":"A"},"tier":7,"tier_name":"burning","trend":"hotter"}],"time":"2025-01-01T00:00:01.000Z"}"#)
    }

    @Test func topicLevelsRefuseWildcardsSeparatorsAndEmptiness() {
        #expect(Topics.problem(level: "car-1") == nil)
        #expect(Topics.problem(level: "") != nil)
        #expect(Topics.problem(level: "a/b") != nil)
        #expect(Topics.problem(level: "a+") != nil)
        #expect(Topics.problem(level: "#") != nil)
        #expect(Topics.problem(level: "a\u{0}b") != nil)
    }

    @Test func statusReadsTheDaemonsStatusAndLocatesTargets() throws {
        let line = #"{"class":"STATUS","release":"0.1.0","gps":{"link":"connected","state":"fix","last_fix":{"time":"2025-01-01T00:00:30.000Z","lat":-30.3000000,"lon":153.1000000,"mode":3,"accuracy_m":9.5,"speed_mps":10.00}},"targets":[{"target":{"id":"p","name":"P","kind":"point"},"distance_m":1000.000,"bearing_deg":90.0,"tier":4,"tier_name":"mild","trend":"hotter","arrived":false}],"time":"2025-01-01T00:00:31.000Z","uptime_s":31,"tracking":{"mode":"hunt","candidates":1,"tracked":1},"counters":{"fixes":31,"fixes_accepted":31,"fixes_untimed":0,"outliers":0,"out_of_order":0,"events":3,"visit_errors":0},"latency_us":{"samples":31,"p50":80,"p99":200,"max":300}}"#
        let s = try StatusReply(bridgeLine: line)
        #expect(s.gps.state == "fix")
        #expect(s.gps.lastFix?.accuracyM == 9.5)
        #expect(s.targets.first?.target.id == "p")
        // A daemon before 1.9 gives no target coordinates: none are made up from the bearing.
        #expect(s.targets.first?.coordinate == nil)
        let exact = try StatusReply(bridgeLine: line.replacingOccurrences(of: #""arrived":false}"#,
                                                                           with: #""arrived":false,"lat":-30.3001234,"lon":153.1101234}"#))
        #expect(exact.targets.first?.coordinate == Coordinate(latitude: -30.3001234, longitude: 153.1101234))
        #expect(throws: WireError.self, "half a coordinate") {
            try StatusReply(bridgeLine: line.replacingOccurrences(of: #""arrived":false}"#, with: #""arrived":false,"lat":-30.3}"#))
        }
        #expect(throws: WireError.self) {
            try StatusReply(bridgeLine: #"{"class":"STATUS","gps":{"state":"fix","last_fix":{"time":"x","lat":0,"lon":0}}}"#)
        }
        #expect(throws: WireError.self) {
            try StatusReply(bridgeLine: line.replacingOccurrences(of: #""lat":-30.3000000"#, with: #""lat":95"#))
        }
        #expect(throws: WireError.self) {
            try StatusReply(bridgeLine: line.replacingOccurrences(of: #""distance_m":1000.000"#, with: #""distance_m":-1"#))
        }
        #expect(throws: WireError.self, "a STATUS without its required fields") {
            try StatusReply(bridgeLine: #"{"class":"STATUS","gps":{"state":"fix"}}"#)
        }
    }

    /// The bridge reads STATUS with the protocol's own type: whatever the daemon writes (every
    /// field, the fix's course and satellites too) comes back equal. A copy of the message in
    /// the bridge that lost or renamed a field would fail here.
    @Test func statusRoundTripsThroughTheBridgesReader() throws {
        var s = status("fix",
                       lastFix: .init(time: Date(timeIntervalSince1970: 1_735_689_630), lat: -30.3, lon: 153.1, mode: 3,
                                      accuracyM: 9.5, speedMps: 10, trackDeg: 271.5, satellites: 9),
                       targets: [.init(target: TargetRef(id: "p", name: "P", kind: .point), distanceM: 1000, bearingDeg: 90,
                                       tier: 4, tierName: "mild", trend: "hotter", arrived: false)])
        s.friends = [.init(who: "jane/ute", name: "Jane", distanceM: 1520.4, bearingDeg: 312.5, tier: 4, tierName: "cool",
                           trend: "colder", arrived: false, ageS: 3, stale: false)]
        s.visits = .init(at: ["p"], restored: [], pending: 0, heldEvents: 0, retries: 0, stored: 1, failed: 0, dropped: 0)
        #expect(try StatusReply(bridgeLine: WireCoding.line(s)) == s)
        // Figures that make no sense are dropped, not refused; the rest of the fix stays.
        s.gps.lastFix?.accuracyM = -1
        s.gps.lastFix?.trackDeg = 400
        let read = try StatusReply(bridgeLine: WireCoding.line(s))
        #expect(read.gps.lastFix?.accuracyM == nil && read.gps.lastFix?.trackDeg == nil && read.gps.lastFix?.speedMps == 10)
        s.targets[0].trend = "lukewarm"
        #expect(throws: WireError.self) { try StatusReply(bridgeLine: WireCoding.line(s)) }
        s.targets[0].trend = "hotter"
        s.targets[0].tier = -1
        #expect(throws: WireError.self) { try StatusReply(bridgeLine: WireCoding.line(s)) }
        s.targets[0].tier = 8
        s.tracking.tiers = ["cold", "warm", "hot"]
        let e = #expect(throws: WireError.self) { try StatusReply(bridgeLine: WireCoding.line(s)) }
        #expect(e?.message.contains("targets[0].tier") == true)
        s.targets[0].tier = 2
        #expect(try StatusReply(bridgeLine: WireCoding.line(s)).targets[0].tier == 2)
    }

    /// The bridge reads events with the protocol's own `EventMessage`: each kind, written by the
    /// protocol's encoder, comes back equal, and its line is published unchanged.
    @Test func eventsRoundTripThroughTheBridgesReader() throws {
        let t = Date(timeIntervalSince1970: 1_735_689_600)
        let banana = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)
        let events: [EventMessage] = [
            EventMessage(.proximity(.init(time: t, target: banana, distance: 812.5, bearing: 271.5, tier: 3, tierName: "warm",
                                          trend: .hotter, accuracy: 4.5, speed: 12.25, eta: 66)), seq: 1),
            EventMessage(.arrived(.init(time: t, target: banana, distance: 42)), seq: 2),
            EventMessage(.departed(.init(time: t, target: banana, distance: 160)), seq: 3),
            EventMessage(.gps(.init(time: t, state: .stale)), seq: 4),
        ]
        for e in events {
            let read = try EventMessage(bridgeLine: e.line)
            #expect(read == e)
            #expect(read.sequence == e.seq.map(UInt64.init))
            #expect(HotColdLayout.publications(for: read, topics: topics).first?.payload == e.line)
        }
    }

    @Test func eventsReadSeqAndRefuseBadOnes() throws {
        #expect(try EventMessage(bridgeLine: #"{"class":"GPS","time":"2024-11-23T07:25:05.000Z","state":"fix"}"#).seq == nil)
        #expect(try EventMessage(bridgeLine: #"{"class":"GPS","seq":9007199254740993,"time":"2024-11-23T07:25:05.000Z","state":"fix"}"#).sequence == 9_007_199_254_740_993)
        #expect(throws: WireError.self) { try EventMessage(bridgeLine: #"{"class":"GPS","seq":-1,"time":"2024-11-23T07:25:05.000Z","state":"fix"}"#) }
        #expect(throws: WireError.self) { try EventMessage(bridgeLine: #"{"class":"GPS","seq":1.5,"time":"2024-11-23T07:25:05.000Z","state":"fix"}"#) }
        #expect(throws: WireError.self) { try EventMessage(bridgeLine: #"{"class":"GPS","seq":"1","time":"2024-11-23T07:25:05.000Z","state":"fix"}"#) }
    }
}
