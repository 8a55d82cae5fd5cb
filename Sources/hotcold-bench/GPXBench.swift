import Foundation
import GPSInput
import HotColdCore
import HotColdStore
import HotColdTestSupport

/// GPX waypoint import parse (no database): a real Groundspeak pocket query (500 caches with
/// logs, 3.9 MB) through `GPXImporter.parse`, median of 7, and the process's peak resident size
/// afterwards. Run it alone (`hotcold-bench gpx`) so the peak is this bench's.
func benchGPX() {
    let data = try! Data(contentsOf: TestData.url("geocaches/cachebox3-6004539_HomeZone.gpx"))
    var places = 0
    let seconds = medianSeconds(runs: 7) {
        places = try! GPXImporter.parse(data, file: "HomeZone.gpx").places.count
    }
    let mb = Double(data.count) / 1e6
    print(String(format: "GPXImporter.parse pocket query: %d places, %.1f ms, %.1f MB/s (median of 7)",
                 places, seconds * 1e3, mb / seconds))
    print("peak RSS: \(peakResidentKiB()) KiB")
}

/// The process's peak resident set size so far (getrusage's ru_maxrss, KiB on Linux).
func peakResidentKiB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
}

#if canImport(FoundationXML)
import FoundationXML
#endif

/// TEMPORARY baseline (before the FoundationXML reader is removed): a 200k-point track through
/// TrackReader, or through XMLParser counting trkpt with a time, each alone for its peak RSS.
func benchGPXTrack(xmlParser: Bool) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-bench-track-\(getpid()).gpx").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let out = FileHandle(forWritingAtPath: path)!
    var s = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<gpx version="1.0" creator="bench" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>"# + "\n"
    for i in 0..<200_000 {
        let t = ISO8601.format(Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
        s += "<trkpt lat=\"\(51.99 + Double(i % 1000) * 1e-6)\" lon=\"\(4.37 + Double(i % 999) * 1e-6)\"><ele>19.470</ele><time>\(t)</time><course>338.779999</course><speed>12.050000</speed><fix>3d</fix><sat>7</sat><hdop>3.200000</hdop></trkpt>\n"
        if s.utf8.count > 1 << 20 { out.write(Data(s.utf8)); s = "" }
    }
    s += "</trkseg></trk></gpx>\n"
    out.write(Data(s.utf8)); out.closeFile()
    final class Counter: NSObject, XMLParserDelegate {
        var n = 0
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) { if name == "trkpt" { n += 1 } }
    }
    let before = peakResidentKiB()
    var count = 0
    let seconds = medianSeconds(runs: 5) {
        if xmlParser {
            let p = XMLParser(contentsOf: URL(fileURLWithPath: path))!
            let c = Counter(); p.delegate = c; _ = p.parse(); count = c.n
        } else {
            let r = try! TrackReader(path: path); count = 0
            while let _ = try! r.next() { count += 1 }
        }
    }
    print("\(xmlParser ? "XMLParser" : "TrackReader") GPX track: \(count) points, \(Int(Double(count) / seconds)) points/s (median of 5), peak RSS +\(peakResidentKiB() - before) KiB")
}
