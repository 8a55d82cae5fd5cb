import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Every event has one definition: the engine's own values, coded by the protocol. They become
/// lines at the wire's resolution and come back from them as the same lines.
@Suite(.offCooperativePool) struct EventMessageTests {
    static let when = ISO8601.parse("2024-11-23T07:24:31.000Z")!
    static let target = TargetRef(id: "halans:d0577fb8cf", name: "Die \"Quelle\"\n", kind: .bigThing)
    static let events: [Event] = [
        .proximity(.init(time: when, target: target, distance: 280.4124, bearing: 172.34, tier: 6, tierName: "hot",
                         trend: .hotter, accuracy: 9.46, speed: 5.994, eta: 46.4)),
        .proximity(.init(time: when, target: target, distance: 12_000.5, bearing: 0, tier: 0, tierName: "freezing", trend: .unknown)),
        .arrived(.init(time: when, target: target, distance: 83.1)),
        .departed(.init(time: when, target: target, distance: 166.2)),
        .gps(.init(time: when, state: .stale)),
    ]

    func object(_ line: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? NSDictionary
    }

    @Test func engineValuesRoundTripThroughTheirOneDefinition() throws {
        for e in Self.events {
            let line = EventMessage(e).line
            let back = try #require(try EventMessage.decode(line: line))
            #expect(back.event.className == e.className && back.event.target == e.target && back.seq == nil, "\(line)")
            #expect(back.line == line)
            #expect(try EventMessage.decode(line: back.line) == back)
            #expect(line.hasPrefix("{\"class\":\"\(e.className)\""))
            #expect(object(EventMessage(e, seq: 9).line)?["seq"] as? Int == 9)
        }
        #expect(try EventMessage.decode(line: ProtocolVersion.greeting) == nil)
    }

    /// The engine keeps its full figures; the line has the wire's resolution (what comes back).
    @Test func figuresAreRoundedWhenWrittenNotWhenMade() throws {
        let line = EventMessage(Self.events[0], seq: 3).line
        #expect(line == #"{"class":"PROXIMITY","seq":3,"accuracy_m":9.5,"bearing_deg":172.3,"distance_m":280.412,"eta_s":46,"speed_mps":5.99,"target":{"id":"halans:d0577fb8cf","kind":"bigthing","name":"Die \"Quelle\"\n"},"tier":6,"tier_name":"hot","time":"2024-11-23T07:24:31.000Z","trend":"hotter"}"#)
        guard case .proximity(let p) = try #require(try EventMessage.decode(line: line)).event else {
            Issue.record("not PROXIMITY"); return
        }
        #expect(p.distance == 280.412 && p.bearing == 172.3 && p.accuracy == 9.5 && p.speed == 5.99 && p.eta == 46)
        let nonFinite = Event.proximity(.init(time: Self.when, target: Self.target, distance: .infinity, bearing: .nan, tier: 0,
                                              tierName: "freezing", trend: .unknown, accuracy: .nan, speed: -.infinity))
        #expect(!EventMessage(nonFinite).line.contains("accuracy_m") && !EventMessage(nonFinite).line.contains("speed_mps"))
        #expect(EventMessage(nonFinite).line.contains(#""bearing_deg":0,"distance_m":0,"#))
    }

    @Test func sequenceNumbersAndReasonsAreCarried() throws {
        let line = #"{"class":"GPS","seq":41,"time":"2026-11-21T05:30:00.120Z","state":"lost","reason":"gpsd closed the connection"}"#
        let gps = try #require(try EventMessage.decode(line: line))
        guard case .gps(let g) = gps.event else { Issue.record("not GPS"); return }
        #expect(gps.seq == 41 && g.reason == "gpsd closed the connection" && g.state == .lost)
        #expect(object(gps.line) == object(line))
        let arrived = #"{"class":"ARRIVED","seq":7,"time":"2024-11-23T07:25:04.000Z","target":{"id":"a","name":"A","kind":"geocache"},"distance_m":83.1}"#
        let m = try #require(try EventMessage.decode(line: arrived))
        guard case .arrived = m.event else { Issue.record("not ARRIVED"); return }
        #expect(m.seq == 7 && m.wireClass == "ARRIVED")
        #expect(object(m.line) == object(arrived))
        let departed = try #require(try EventMessage.decode(line: arrived.replacingOccurrences(of: "ARRIVED", with: "DEPARTED")))
        guard case .departed = departed.event else { Issue.record("not DEPARTED"); return }
    }

    @Test func linesMatchTheEventSchema() throws {
        let lines = Self.events.map { EventMessage($0).line }
        #expect(try SchemaTests.invalid(lines, schema: "event.schema.json") == "")
    }

    @Test func queuedEventsRoundTripAndMatchTheSchema() throws {
        let line = #"{"class":"QUEUED","seq":812,"time":"2026-11-23T19:00:00.000Z","pending":2}"#
        let q = try #require(try QueuedEvent.decode(line: line))
        #expect(q.seq == 812 && q.pending == 2 && q.time == ISO8601.parse("2026-11-23T19:00:00.000Z"))
        #expect(object(WireCoding.line(q)) == object(line))
        #expect(try QueuedEvent.decode(line: EventMessage(Self.events[4]).line) == nil)
        #expect(try EventMessage.decode(line: line) == nil, "QUEUED is not an engine event")
        #expect(try SchemaTests.invalid([line, WireCoding.line(q)], schema: "event.schema.json") == "")
        let empty = #"{"class":"QUEUED","seq":1,"time":"2026-11-23T19:00:00.000Z","pending":0}"#
        #expect(try SchemaTests.invalid([empty], schema: "event.schema.json") != "", "a QUEUED event always has something pending")
    }
}
