import Foundation
import GPSInput
import HotColdDaemonTesting
import Testing

/// Files that are not tracks: refused up front, with the file and the reason named.
@Suite(.offCooperativePool) struct TrackReaderErrorTests {
    private func refusal(_ path: String) throws -> String {
        try #require(throws: TrackReadError.self) { try TrackReader(path: path) }.description
    }

    @Test func missingFile() throws {
        #expect(try refusal("/nonexistent/track.nmea") == "cannot read /nonexistent/track.nmea: No such file or directory")
    }

    @Test func directory() throws {
        let dir = FileManager.default.temporaryDirectory.path
        #expect(try refusal(dir) == "cannot read \(dir): is a directory")
    }

    @Test func emptyFile() throws {
        let path = try Recordings.temporaryFile([])
        #expect(try refusal(path) == "cannot read \(path): empty file, not a GPS track (NMEA, gpsd JSON or GPX expected)")
    }

    @Test func onlyComments() throws {
        let path = try Recordings.temporaryFile("# Name: nothing\n#\n\n")
        #expect(try refusal(path).hasSuffix("only comment lines, no GPS data (NMEA, gpsd JSON or GPX expected)"))
    }

    @Test func randomBinary() throws {
        // A fixed linear congruential sequence: random-looking and the same every run.
        var state: UInt32 = 12345
        let bytes = (0..<20_000).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let path = try Recordings.temporaryFile(bytes, suffix: ".bin")
        #expect(try refusal(path) == "cannot read \(path): binary data, not a GPS track (NMEA, gpsd JSON or GPX expected)")
    }

    @Test func jpeg() throws {
        let path = try Recordings.temporaryFile([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 100))
        #expect(try refusal(path).contains("binary data (JPEG image)"))
    }

    @Test func prose() throws {
        let path = try Recordings.temporaryFile("Dear diary,\nToday I walked to the Big Banana.\nIt cost $5, worth it.\n")
        #expect(try refusal(path) == "cannot read \(path): text, but not a GPS track (NMEA, gpsd JSON or GPX expected)")
    }

    @Test func jsonWithoutTPV() throws {
        #expect(try refusal(Recordings.root.appendingPathComponent("bigthings/bigthings.json").path).hasSuffix("JSON without any TPV object, not a gpsd track"))
        // The TPV check reads past the first 64 KiB rather than guessing.
        let sky = String(repeating: #"{"class":"SKY","satellites":[]}"# + "\n", count: 4000)
        let late = try Recordings.temporaryFile(sky + #"{"class":"TPV","mode":1,"time":"2024-01-01T00:00:00Z"}"# + "\n")
        #expect(try TrackReader(path: late).format == .gpsdJSON)
        let never = try Recordings.temporaryFile(sky)
        #expect(try refusal(never).hasSuffix("JSON without any TPV object, not a gpsd track"))
    }

    @Test func xmlThatIsNotATrack() throws {
        let geocaches = Recordings.root.appendingPathComponent("geocaches/cachebox3-GC2T9RW.gpx").path
        #expect(try refusal(geocaches).hasSuffix("GPX without track or route points"))
        let svg = try Recordings.temporaryFile("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n")
        #expect(try refusal(svg).hasSuffix("XML, but not GPX"))
    }

    @Test func formatComesFromContentNotName() throws {
        let json = try Recordings.temporaryFile(#"{"class":"TPV","mode":1,"time":"2024-01-01T00:00:00Z"}"# + "\n", suffix: ".gpx")
        #expect(try TrackReader(path: json).format == .gpsdJSON)
        let nmea = try Recordings.temporaryFile(Recordings.sentence("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,") + "\n", suffix: ".json")
        #expect(try TrackReader(path: nmea).format == .nmea)
    }

    @Test func overlongLinesAreSkipped() throws {
        let long = String(repeating: "x", count: 200_000)
        let text = Recordings.sentence("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,") + "\n$" + long + "\n"
            + Recordings.sentence("GPRMC,000002,A,0100.0,N,00100.0,E,0,0,010120,,") + "\n"
        let (fixes, stats, _) = try Recordings.readAll(try Recordings.temporaryFile(text))
        #expect(fixes.count == 2)
        #expect(stats.skipped == [.tooLong: 1])
    }
}
