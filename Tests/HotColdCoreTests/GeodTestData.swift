import Foundation

/// One line of Karney's GeodTest set: `lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 S12`.
struct GeodTestRow: Sendable {
    var index: Int
    var lat1, lon1, azi1, lat2, lon2, azi2, s12: Double
    /// Reduced length: how far the end point moves sideways per radian of azi1.
    var m12: Double
}

/// The reference geodesics, read once from `<repo>/../shared/data/geodesic/`.
enum GeodTestData {
    /// Row groups of GeodTest-short (1,000 rows each after the first 2,000).
    static let groups: [(name: String, range: Range<Int>)] = [
        ("random", 0..<2000),
        ("nearly antipodal", 2000..<3000),
        ("short", 3000..<4000),
        ("one end near a pole", 4000..<5000),
        ("ends near opposite poles", 5000..<6000),
        ("nearly meridional", 6000..<7000),
        ("nearly equatorial", 7000..<8000),
        ("between vertices", 8000..<9000),
        ("ends near vertices", 9000..<10000),
    ]

    /// The shared data directory: walk up from this file to the package root
    /// (the directory holding Package.swift), then `../shared/data`.
    static let dataDirectory: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.deletingLastPathComponent().appendingPathComponent("shared/data")
            }
            dir = dir.deletingLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static let shortFile = dataDirectory.appendingPathComponent("geodesic/GeodTest-short.dat.gz")

    /// All 10,000 rows of GeodTest-short.dat.gz, decompressed by /bin/gzip.
    static let rows: [GeodTestRow] = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", shortFile.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { fatalError("cannot run gzip on \(shortFile.path): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "gzip failed on \(shortFile.path)")
        return parse(String(decoding: data, as: UTF8.self))
    }()

    static func parse(_ text: String) -> [GeodTestRow] {
        var out: [GeodTestRow] = []
        for line in text.split(separator: "\n") {
            let v = line.split(separator: " ").map { field -> Double in
                // Fields such as ".000260256428101053" lack the leading zero.
                guard let d = Double(field.hasPrefix(".") ? "0" + field : String(field)) else {
                    fatalError("bad number \(field) in line \(out.count)")
                }
                return d
            }
            precondition(v.count == 10, "line \(out.count) has \(v.count) fields")
            out.append(GeodTestRow(
                index: out.count, lat1: v[0], lon1: v[1], azi1: v[2], lat2: v[3], lon2: v[4],
                azi2: v[5], s12: v[6], m12: v[8]))
        }
        return out
    }
}

/// Smallest difference between two angles in degrees, in [0, 180].
func angleError(_ x: Double, _ y: Double) -> Double {
    abs((x - y).remainder(dividingBy: 360))
}
