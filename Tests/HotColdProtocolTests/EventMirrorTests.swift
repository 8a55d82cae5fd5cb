import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Every event has one definition, in the protocol: the engine's values become lines through
/// it and come back from them unchanged.
@Suite(.offCooperativePool) struct EventMirrorTests {
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
            // The wire's resolution (millimetres, tenths of a degree) is what comes back.
            #expect(back == EventMessage(e), "\(line)")
            #expect(back.line == line)
            #expect(line.hasPrefix("{\"class\":\"\(e.className)\""))
            #expect(object(EventMessage(e, seq: 9).line)?["seq"] as? Int == 9)
        }
        #expect(try EventMessage.decode(line: ProtocolVersion.greeting) == nil)
    }

    @Test func sequenceNumbersAndReasonsAreCarried() throws {
        let line = #"{"class":"GPS","seq":41,"time":"2026-11-21T05:30:00.120Z","state":"lost","reason":"gpsd closed the connection"}"#
        guard case .gps(let g)? = try EventMessage.decode(line: line) else { Issue.record("not GPS"); return }
        #expect(g.seq == 41 && g.reason == "gpsd closed the connection" && g.state == .lost)
        let arrived = #"{"class":"ARRIVED","seq":7,"time":"2024-11-23T07:25:04.000Z","target":{"id":"a","name":"A","kind":"geocache"},"distance_m":83.1}"#
        guard case .arrived(let p)? = try EventMessage.decode(line: arrived) else { Issue.record("not ARRIVED"); return }
        #expect(p.seq == 7 && p.wireClass == "ARRIVED")
        #expect(object(WireCoding.line(p)) == object(arrived))
    }

    @Test func mirrorLinesMatchTheEventSchema() throws {
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
