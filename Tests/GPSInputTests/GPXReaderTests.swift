import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Counts timed and untimed track/route points with Foundation's own XML parser, to check ours.
private final class PointCounter: NSObject, XMLParserDelegate {
    var timed = 0, untimed = 0
    var firstTime: String?, lastTime: String?
    private var inPoint = false, hasTime = false, inTime = false, text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if name == "trkpt" || name == "rtept" { inPoint = true; hasTime = false }
        if inPoint, name == "time" { inTime = true; text = "" }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { if inTime { text += string } }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if inTime, name == "time" {
            inTime = false
            hasTime = true
            if firstTime == nil { firstTime = text }
            lastTime = text
        }
        if name == "trkpt" || name == "rtept" {
            inPoint = false
            if hasTime { timed += 1 } else { untimed += 1 }
        }
    }
}

@Suite(.offCooperativePool) struct GPXReaderTests {
    @Test(arguments: Recordings.files(in: Recordings.tracks, suffix: ".gpx"))
    func everyTrackMatchesXMLParser(_ url: URL) throws {
        let (fixes, stats, format) = try Recordings.readAll(url.path)
        #expect(format == .gpx)
        let counter = PointCounter()
        let parser = try #require(XMLParser(contentsOf: url))
        parser.delegate = counter
        #expect(parser.parse())
        #expect(fixes.count == counter.timed)
        #expect(stats.skipped == (counter.untimed > 0 ? [.noTime: counter.untimed] : [:]))
        #expect(stats.stoppedEarly == nil)
        #expect(fixes.first.map { ISO8601.parse(counter.firstTime!) == $0.time } == true)
        #expect(fixes.last.map { ISO8601.parse(counter.lastTime!) == $0.time } == true)
        #expect(fixes.filter(\.hasPosition).count > fixes.count * 9 / 10)
    }

    @Test func delftDriveFields() throws {
        let fixes = try Recordings.readAll(Recordings.tracks.appendingPathComponent("gpsbabel-sbn-v13.gpx").path).fixes
        #expect(fixes.count == 3453)
        // First point: <fix>none</fix> — recorded, but the receiver said it had no fix.
        #expect(fixes[0].mode == .noFix && fixes[0].coordinate == nil)
        let fix = try #require(fixes.first { $0.hasPosition })
        #expect(fix.mode == .threeD || fix.mode == .twoD)
        #expect(fix.speed != nil && fix.track != nil && fix.hdop != nil && fix.satellites != nil)
        #expect(fixes.filter { $0.mode == .noFix }.count == 89)
    }

    private func gpx(_ body: String, version: String = "1.1") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- written by hand -->
        <gpx version="\(version)" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
        \(body)
        </gpx>
        """
    }

    @Test func gpx11PointFields() throws {
        let text = gpx("""
        <trk><name>a &amp; b</name><trkseg>
          <trkpt lon="2.5" lat='1.5'><ele>12.5</ele><time>2024-05-01T10:00:00Z</time>
            <sat>7</sat><hdop>0.9</hdop><pdop>1.4</pdop><fix>2d</fix>
            <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>3.5</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
          </trkpt>
          <trkpt lat="1.6" lon="2.6"><ele>13</ele><time><![CDATA[2024-05-01T10:00:01Z]]></time></trkpt>
          <trkpt lat="1.7" lon="2.7"><ele>13</ele></trkpt>
          <trkpt lat="1.8" lon="2.8"/>
        </trkseg></trk>
        """)
        let (fixes, stats, format) = try Recordings.readAll(try Recordings.temporaryFile(text, suffix: ".xml"))
        #expect(format == .gpx)
        #expect(fixes.count == 2)
        let a = fixes[0]
        #expect(a.coordinate == Coordinate(latitude: 1.5, longitude: 2.5))
        #expect(a.mode == .twoD && a.altitude == nil && a.satellites == 7 && a.hdop == 0.9)
        #expect(a.speed == 3.5 && a.track == 90)
        #expect(fixes[1].mode == .threeD && fixes[1].altitude == 13)
        #expect(ISO8601.format(fixes[1].time) == "2024-05-01T10:00:01.000Z")
        #expect(stats.skipped == [.noTime: 2])
        #expect(stats.skipSummary == "skipped 2 points (2 no time)")
    }

    @Test func malformedBeforeAnyPointThrowsWithPlace() throws {
        let text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\">\n  <trk><trkseg></trk>\n<trkpt lat=\"1\" lon=\"2\"/></gpx>\n"
        let path = try Recordings.temporaryFile(text, suffix: ".gpx")
        let reader = try TrackReader(path: path)
        let error = try #require(throws: TrackReadError.self) { _ = try reader.next() }
        #expect(error.description == "cannot read \(path): malformed XML at line 3, column 16: closing tag </trk> does not match <trkseg>")
    }

    @Test func malformedMidwayStopsAndSays() throws {
        let text = gpx("""
        <trk><trkseg>
        <trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2024-05-01T10:00:01Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2024-05-01T10:00:02Z</time></trkpt
        """).replacingOccurrences(of: "</gpx>", with: "")
        let (fixes, stats, _) = try Recordings.readAll(try Recordings.temporaryFile(text))
        #expect(fixes.count == 2)
        #expect(stats.skipped == [.malformedXML: 1])
        #expect(stats.stoppedEarly == "malformed XML at line 9, column 1: file ends inside markup")
    }
}
