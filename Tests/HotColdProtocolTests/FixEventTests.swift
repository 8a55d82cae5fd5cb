import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// FIX is STATUS's `last_fix` under its own class, without the ages: one struct writes both.
@Suite(.offCooperativePool) struct FixEventTests {
    static let when = ISO8601.parse("2025-01-01T00:04:30.000Z")!
    static let line = #"{"class":"FIX","accuracy_m":9.5,"lat":-30.3,"lon":153.128,"mode":3,"speed_mps":10,"time":"2025-01-01T00:04:30.000Z","track_deg":92.5}"#

    @Test func theLineIsTheDocumentedOneAndReadsBack() throws {
        let f = FixEvent(time: Self.when, lat: -30.3, lon: 153.128, mode: 3, accuracyM: 9.46, speedMps: 10, trackDeg: 92.54)
        #expect(WireCoding.line(f) == Self.line)
        #expect(try FixEvent.decode(line: Self.line) == f)
        #expect(try FixEvent.decode(line: ProtocolVersion.greeting) == nil)
        #expect(try JSONSchemaCheck.failures([Self.line], schema: "event.schema.json") == "")
    }

    @Test func itsFieldsAreStatusLastFixWithoutTheAges() throws {
        let f = FixEvent(time: Self.when, lat: -30.3, lon: 153.128, mode: 3, accuracyM: 9.5, speedMps: 10, trackDeg: 92.5,
                         ageS: 1.5, clockOffsetS: -3)
        let inStatus = String(decoding: try WireCoding.encoder().encode(f), as: UTF8.self)
        #expect(inStatus.contains(#""age_s":1.5"#))
        var live = f
        live.ageS = nil
        live.clockOffsetS = nil
        #expect(WireCoding.line(live) == Self.line)
        // A FIX that carries ages anyway is read without them.
        let withAges = Self.line.replacingOccurrences(of: #""mode":3"#, with: #""age_s":4,"mode":3"#)
        #expect(try FixEvent.decode(line: withAges) == live)
        #expect(throws: ProtocolError.self) { try FixEvent.decode(line: Self.line.replacingOccurrences(of: "-30.3", with: "-91")) }
        #expect(throws: ProtocolError.self) { try FixEvent.decode(line: Self.line.replacingOccurrences(of: "9.5", with: "-1")) }
    }
}
