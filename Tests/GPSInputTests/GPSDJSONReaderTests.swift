import Foundation
import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct GPSDJSONReaderTests {
    /// Every gpsd 3.22 replay, cross-checked line by line against Foundation's JSON parser.
    @Test(arguments: Recordings.files(in: Recordings.replays, suffix: ".tpv.jsonl"))
    func everyReplayMatchesJSONSerialization(_ url: URL) throws {
        let (fixes, stats, format) = try Recordings.readAll(url.path)
        #expect(format == .gpsdJSON)
        var expected: [[String: Any]] = []
        var withoutTime = 0
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["class"] as? String == "TPV" else { continue }
            if object["time"] == nil { withoutTime += 1 } else { expected.append(object) }
        }
        #expect(fixes.count == expected.count)
        #expect(stats.skipped == (withoutTime > 0 ? [.noTime: withoutTime] : [:]))
        for (fix, object) in zip(fixes, expected) {
            #expect(ISO8601.format(fix.time) == object["time"] as? String)
            let mode = object["mode"] as? Int ?? 0
            #expect(fix.mode.rawValue == mode)
            if mode >= 2, let lat = object["lat"] as? Double, let lon = object["lon"] as? Double {
                #expect(fix.coordinate == Coordinate(latitude: lat, longitude: lon))
            } else {
                #expect(fix.coordinate == nil)
            }
            #expect(fix.eph == object["eph"] as? Double)
            #expect(fix.epx == object["epx"] as? Double)
            #expect(fix.speed == object["speed"] as? Double)
            #expect(fix.track == object["track"] as? Double)
            if mode == 3 { #expect(fix.altitude == (object["altMSL"] ?? object["alt"]) as? Double) }
        }
    }

    @Test func otherClassesAreIgnoredAndLinesCounted() throws {
        let text = """
        {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
        {"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2024-01-01T00:00:00.000Z"}]}
        {"class":"WATCH","enable":true,"json":true}
        {"class":"SKY","satellites":[{"PRN":1,"used":true}],"hdop":1.1}
        {"class":"TPV","mode":3,"time":"2024-01-01T00:00:01.000Z","lat":1.5,"lon":2.5,"altMSL":10}
        {"class":"TPV","mode":1}
        {"class":"TPV","mode":1,"time":"2024-01-01T00:00:02.000Z","lat":9,"lon":9}

        """
        let (fixes, stats, _) = try Recordings.readAll(try Recordings.temporaryFile(text, suffix: ".json"))
        #expect(fixes.count == 2)
        #expect(fixes[0].coordinate == Coordinate(latitude: 1.5, longitude: 2.5))
        #expect(fixes[0].altitude == 10)
        // Mode 1 keeps its time but not its (stale) position.
        #expect(fixes[1].mode == .noFix && fixes[1].coordinate == nil)
        #expect(stats.ignored == 4)
        #expect(stats.skipped == [.noTime: 1])
        #expect(stats.lines == 7)
    }

    /// The scanner's JSON: whitespace, key order, escapes, nesting, exponents, literals.
    @Test func scannerHandlesRealJSON() throws {
        let text = """
          { "lon" : -1.25e1 , "nested":{"a":[1,{"b":"}]"}],"c":"x"}, "lat":4.5E-1,"mode":2,
         "tag":"we\\"ird\\\\","time" :"2024-01-01T00:00:03.250Z","class":"TPV","ok":true,"none":null,"speed":1e0 }
        """.replacingOccurrences(of: "\n", with: " ") + "\n"
        let (fixes, stats, format) = try Recordings.readAll(try Recordings.temporaryFile(text, suffix: ".json"))
        #expect(format == .gpsdJSON)
        #expect(stats.skippedTotal == 0)
        let fix = try #require(fixes.first)
        #expect(fix.coordinate == Coordinate(latitude: 0.45, longitude: -12.5))
        #expect(fix.mode == .twoD)
        #expect(fix.speed == 1)
        #expect(ISO8601.format(fix.time) == "2024-01-01T00:00:03.250Z")
    }

    @Test func brokenLinesAreSkipped() throws {
        let good = #"{"class":"TPV","mode":2,"time":"2024-01-01T00:00:01Z","lat":1,"lon":2}"#
        let lines = [
            good,
            #"{"class":"TPV","mode":2,"time":"2024-01-01T00:00:02Z","lat":1,"lon":2"#,   // no closing brace
            #"{"class":"TPV","mode":2,"time":"yesterday","lat":1,"lon":2}"#,              // bad time
            #"{"class":"TPV","mode":2,"time":"2024-01-01T00:00:04Z","lat":1.2.3,"lon":2}"#,
            #"{"class":"TPV"} trailing"#,
            "\u{00}\u{01}\u{02}",
            "# comment",
            #"{"class":"TPV","mode":2,"time":"2024-01-01T00:00:05Z","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":2,"time":"2024-01-01T00:0"#,                          // file cut off
        ]
        let (fixes, stats, _) = try Recordings.readAll(try Recordings.temporaryFile(lines.joined(separator: "\n"), suffix: ".json"))
        #expect(fixes.count == 2)
        #expect(stats.skipped == [.unparsable: 5, .truncated: 1])
        #expect(stats.comments == 1)
    }
}
