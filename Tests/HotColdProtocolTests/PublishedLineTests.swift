import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The daemon's numbered lines: `"seq"` right after `"class"`, read back by the header scanner.
@Suite(.offCooperativePool) struct PublishedLineTests {
    let target = TargetRef(id: "halans:d0577fb8cf", name: "Big \"Banana\"", kind: .bigThing)
    let time = Date(timeIntervalSince1970: 1_700_000_000.25)

    var samples: [Event] {
        [
            .proximity(.init(time: time, target: target, distance: 280.4, bearing: 172.3, tier: 6,
                             tierName: "hot", trend: .hotter, accuracy: 9.5, speed: 6, eta: 46)),
            .arrived(.init(time: time, target: target, distance: 83.1)),
            .departed(.init(time: time, target: target, distance: 166.2)),
            .gps(.init(time: time, state: .fix)),
        ]
    }

    @Test func seqFollowsClassAndTheRestIsUnchanged() throws {
        for (i, e) in samples.enumerated() {
            let seq = 1 + i * 1_000_003
            let line = EventMessage(e, seq: seq).line
            let plain = EventMessage(e).line
            #expect(line.hasPrefix("{\"class\":\"\(e.className)\",\"seq\":\(seq),"))
            // Removing the seq gives exactly the replay line: the goldens stay as they are.
            #expect(line.replacingOccurrences(of: ",\"seq\":\(seq)", with: "") == plain)
            // And it still reads back as the same event.
            #expect(try #require(try EventMessage.decode(line: line)).event == e)
        }
    }

    @Test func headerReadsClassAndSeq() {
        for (i, e) in samples.enumerated() {
            let h = PublishedLineHeader(utf8: Array(EventMessage(e, seq: 40 + i).line.utf8))
            #expect(h == PublishedLineHeader(className: e.className, seq: 40 + i))
        }
        // Works on a slice in the middle of a buffer, as the log reader passes it.
        let buffer = Array(("junk\n" + EventMessage(samples[1], seq: 987_654_321_012).line + "\n").utf8)
        #expect(PublishedLineHeader(utf8: buffer[5..<(buffer.count - 1)])?.seq == 987_654_321_012)
    }

    @Test func headerRefusesWhatIsNotOurs() {
        let refused = [
            EventMessage(samples[0]).line,                                   // replay output: no seq
            #"{"class":"GPS","seq":-1,"time":"x"}"#,               // negative
            #"{"class":"GPS","seq":1e3,"time":"x"}"#,              // not an integer
            #"{"class":"GPS","seq":1234567890123456789,"x":1}"#,   // 19 digits
            #"{"class":"GPS","seq":12"#,                           // cut off after the digits
            #"{"class":"gps","seq":1}"#,                           // not our class spelling
            #"{"seq":1,"class":"GPS"}"#,                           // order
            #"{"class":"GPS","#,                                   // fragment of a failed write
            "",
        ]
        for line in refused {
            #expect(PublishedLineHeader(utf8: Array(line.utf8)) == nil, "\(line)")
        }
        #expect(PublishedLineHeader(utf8: Array(#"{"class":"GPS","seq":0}"#.utf8))?.seq == 0)
    }

    @Test func numberedLinesMatchTheJSONSchema() throws {
        // Validated by Python's jsonschema: seq is optional, an integer >= 1 when present.
        let good = samples.enumerated().map { EventMessage($0.element, seq: $0.offset + 1).line } + samples.map { EventMessage($0).line }
            + [#"{"class":"GPS","seq":9,"time":"2024-11-23T07:00:01.000Z","state":"lost","reason":"gpsd closed the connection"}"#]
        #expect(try JSONSchemaCheck.failures(good, schema: "event.schema.json") == "")
        for broken in [EventMessage(samples[1], seq: 0).line,
                       EventMessage(samples[1]).line.replacingOccurrences(of: "\"time\"", with: "\"seq\":\"7\",\"time\"")] {
            #expect(try JSONSchemaCheck.failures([broken], schema: "event.schema.json") != "", "accepted: \(broken)")
        }
    }
}
