import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct EventWireTests {
    let target = TargetRef(id: "GC2T9RW", name: "Die \"Quelle\"\n", kind: .geocache)
    let time = Date(timeIntervalSince1970: 1_700_000_000.25)

    var samples: [Event] {
        [
            .proximity(.init(time: time, target: target, distance: 1234.56789, bearing: 359.96,
                             tier: 3, tierName: "cool", trend: .hotter, accuracy: 4.44, speed: 13.888, eta: 88.8)),
            .proximity(.init(time: time, target: target, distance: 0.0004, bearing: 0, tier: 7,
                             tierName: "burning", trend: .unknown)),
            .arrived(.init(time: time, target: target, distance: 42.1)),
            .departed(.init(time: time, target: target, distance: 151)),
            .gps(.init(time: time, state: .stale)),
        ]
    }

    @Test func classComesFirstAndUnitsAreInNames() {
        let line = EventMessage(samples[0]).line
        #expect(line.hasPrefix("{\"class\":\"PROXIMITY\","))
        #expect(line.contains("\"time\":\"2023-11-14T22:13:20.250Z\""))
        #expect(line.contains("\"distance_m\":1234.568"))
        #expect(line.contains("\"speed_mps\":13.89"))
        #expect(line.contains("\"eta_s\":89"))
        #expect(!line.contains("\n"))
    }

    @Test func optionalFieldsAreOmittedNotNull() {
        let line = EventMessage(samples[1]).line
        #expect(!line.contains("accuracy_m") && !line.contains("null"))
        #expect(line.contains("\"distance_m\":0,"))
    }

    @Test func roundTrips() throws {
        for e in samples {
            let back = try #require(try EventMessage.decode(line: EventMessage(e).line)).event
            #expect(EventMessage(back).line == EventMessage(e).line)
            #expect(back.className == e.className)
        }
    }

    @Test func linesParseAsJSON() throws {
        for e in samples {
            let obj = try JSONSerialization.jsonObject(with: Data(EventMessage(e).line.utf8)) as? [String: Any]
            #expect(obj?["class"] as? String == e.className)
        }
        let obj = try JSONSerialization.jsonObject(with: Data(EventMessage(samples[2]).line.utf8)) as! [String: Any]
        let t = obj["target"] as! [String: Any]
        #expect(t["name"] as? String == "Die \"Quelle\"\n")
    }

    @Test func linesMatchTheJSONSchema() throws {
        // Validated by a real JSON Schema implementation (Python jsonschema), not by us.
        let lines = samples.map { EventMessage($0).line } + [WireCoding.line(GapEvent(seq: 2572, firstSeq: 842, lost: 1731, reason: "disk full", time: time))]
        #expect(try JSONSchemaCheck.failures(lines, schema: "event.schema.json") == "")
        // And a line that breaks the schema is caught (the check can fail).
        #expect(try JSONSchemaCheck.failures([#"{"class":"ARRIVED","time":"yesterday"}"#], schema: "event.schema.json") != "")
    }

    @Test func isoTimesRoundTrip() {
        for s in ["2029-06-01T12:00:00.000Z", "1999-12-31T23:59:59.999Z", "2024-02-29T00:00:00.500Z"] {
            let d = ISO8601.parse(s)
            #expect(d.map(ISO8601.format) == s)
        }
        #expect(ISO8601.parse("2024-02-29T10:00:00+10:00").map(ISO8601.format) == "2024-02-29T00:00:00.000Z")
        #expect(ISO8601.parse("2024-13-01T00:00:00Z") == nil)
        #expect(ISO8601.parse("not a time") == nil)
    }

    @Test func distanceFormatting() {
        #expect(DistanceFormat.text(849.6) == "850 m")
        #expect(DistanceFormat.text(999.4) == "999 m")
        #expect(DistanceFormat.text(1234) == "1.2 km")
        #expect(DistanceFormat.text(9_960) == "10 km")
        #expect(DistanceFormat.text(12_400) == "12 km")
        #expect(DistanceFormat.compass(0) == "N" && DistanceFormat.compass(359) == "N")
        #expect(DistanceFormat.compass(202.5) == "SSW")
        #expect(DistanceParser.metres("1.2km") == 1200)
        #expect(DistanceParser.metres("850m") == 850)
        #expect(DistanceParser.metres("10") == 10)
        #expect(DistanceParser.metres("-3m") == nil && DistanceParser.metres("far") == nil)
    }
}
