import Foundation
import GPSInput
import HotColdCore

/// Replay-reader throughput: fixes per second through `TrackReader` (median of 7 runs) for a
/// generated gpsd JSON file (500k TPV lines), NMEA log (200k epochs) and GPX track (200k points),
/// plus Foundation's JSON parsers on the same TPV lines for comparison. Build with `-c release`.
func benchReaders() {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }

    let json = dir.appendingPathComponent("big.tpv.jsonl").path
    let nmea = dir.appendingPathComponent("big.nmea").path
    let gpx = dir.appendingPathComponent("big.gpx").path
    writeLines(json, count: 500_000, header: #"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"#) { i in
        let t = ISO8601.format(Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 0.2))
        let lat = -27.2 + Double(i % 1000) * 1e-6, lon = 153.05 + Double(i % 777) * 1e-6
        return #"{"class":"TPV","device":"/dev/ttyUSB0","status":2,"mode":3,"time":"\#(t)","ept":0.005,"lat":\#(lat),"lon":\#(lon),"altHAE":45.2000,"altMSL":3.0000,"alt":3.0000,"epx":12.987,"epy":10.428,"epv":55.200,"track":133.9600,"magtrack":144.9086,"magvar":10.9,"speed":1.085,"climb":0.300,"eps":25.97,"epc":110.40,"geoidSep":42.200,"eph":34.200,"sep":49.400}"#
    }
    writeLines(nmea, count: 200_000, header: "# generated") { i in
        let s = i % 86400
        let hms = String(format: "%02d%02d%02d.00", s / 3600, (s / 60) % 60, s % 60)
        let lat = String(format: "2712.%04d", i % 10000), lon = String(format: "15303.%04d", (i * 7) % 10000)
        return [
            sentence("GPGGA,\(hms),\(lat),S,\(lon),E,1,08,1.1,59.9,M,23.7,M,,0000"),
            sentence("GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5"),
            sentence("GPGSV,3,1,12,20,76,058,40,11,73,252,,06,41,274,,14,41,185,"),
            sentence("GPRMC,\(hms),A,\(lat),S,\(lon),E,0.69,181.39,311214,,,A"),
        ].joined(separator: "\r\n")
    }
    writeLines(gpx, count: 200_000,
               header: #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<gpx version="1.0" creator="bench" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>"#,
               footer: "</trkseg></trk></gpx>") { i in
        let t = ISO8601.format(Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
        return """
              <trkpt lat="\(51.99 + Double(i % 1000) * 1e-6)" lon="\(4.37 + Double(i % 999) * 1e-6)">
                <ele>19.470</ele>
                <time>\(t)</time>
                <course>338.779999</course>
                <speed>12.050000</speed>
                <fix>3d</fix>
                <sat>7</sat>
                <hdop>3.200000</hdop>
              </trkpt>
            """
    }

    for (name, path) in [("gpsd JSON", json), ("NMEA", nmea), ("GPX", gpx)] {
        var count = 0
        let rate = medianRate(runs: 7) {
            let reader = try! TrackReader(path: path)
            count = 0
            while let _ = try! reader.next() { count += 1 }
            return count
        }
        print("TrackReader \(name): \(count) fixes, \(Int(rate)) fixes/s (median of 7)")
    }

    // Foundation baselines on the first 100k TPV lines (why GPSDJSONParser scans by hand).
    let lines = (try! String(contentsOfFile: json, encoding: .utf8)).split(separator: "\n").dropFirst().prefix(100_000).map { Data($0.utf8) }
    struct TPV: Decodable {
        var `class`: String; var mode: Int; var time: String?
        var lat: Double?; var lon: Double?; var eph: Double?; var speed: Double?; var track: Double?; var altMSL: Double?
    }
    let serialization = medianRate(runs: 5) {
        var n = 0
        for line in lines {
            if let o = try? JSONSerialization.jsonObject(with: line) as? [String: Any], o["class"] as? String == "TPV" { n += 1 }
        }
        return n
    }
    print("JSONSerialization: \(Int(serialization)) lines/s (median of 5)")
    let decoder = JSONDecoder()
    let decoding = medianRate(runs: 5) {
        var n = 0
        for line in lines where (try? decoder.decode(TPV.self, from: line)) != nil { n += 1 }
        return n
    }
    print("JSONDecoder: \(Int(decoding)) lines/s (median of 5)")
}

/// Items per second of `body` (which returns how many it processed), median over `runs`.
private func medianRate(runs: Int, _ body: () -> Int) -> Double {
    var rates: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let n = body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rates.append(Double(n) / seconds)
    }
    return rates.sorted()[runs / 2]
}

private func writeLines(_ path: String, count: Int, header: String, footer: String? = nil, _ line: (Int) -> String) {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = FileHandle(forWritingAtPath: path)!
    var buffer = header + "\n"
    for i in 0..<count {
        buffer += line(i)
        buffer += "\n"
        if buffer.utf8.count > 1 << 20 {
            handle.write(Data(buffer.utf8))
            buffer = ""
        }
    }
    if let footer { buffer += footer + "\n" }
    handle.write(Data(buffer.utf8))
    handle.closeFile()
}

private func sentence(_ body: String) -> String {
    "$\(body)*\(String(format: "%02X", body.utf8.reduce(UInt8(0), ^)))"
}
