import Foundation
import HotColdCore
import HotColdTestSupport

/// Throughput of `Geodesic.inverse` (calls per second, median of 7 runs) on
/// three mixes: short lines (< 20 km, the proximity engine's common case),
/// continental lines (random pairs in Australia), and the GeodTest-short file.
func benchGeodesy() {
    var rng = SeededRandom(seed: 0x5EED)
    let n = 200_000

    var short: [(Coordinate, Coordinate)] = []
    for _ in 0..<n {
        let a = Coordinate(latitude: Double.random(in: -44...(-10), using: &rng),
                           longitude: Double.random(in: 113...154, using: &rng))
        let b = Geodesic.direct(from: a, bearing: Double.random(in: 0..<360, using: &rng),
                                distance: Double.random(in: 1..<20_000, using: &rng))
        short.append((a, b))
    }
    var continental: [(Coordinate, Coordinate)] = []
    for _ in 0..<n {
        func point() -> Coordinate {
            Coordinate(latitude: Double.random(in: -44...(-10), using: &rng),
                       longitude: Double.random(in: 113...154, using: &rng))
        }
        continental.append((point(), point()))
    }
    report("short lines (< 20 km)", short)
    report("continental (Australia)", continental)
    if let file = loadGeodTest() {
        report("GeodTest-short mix (\(file.count))", file)
    } else {
        print("geodesy: GeodTest-short.dat.gz not found beside the checkout; file mix skipped")
    }
}

private func report(_ name: String, _ pairs: [(Coordinate, Coordinate)]) {
    var rates: [Double] = []
    var sink = 0.0
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        for (a, b) in pairs {
            let r = Geodesic.inverse(a, b)
            sink += r.distance + r.initialBearing
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rates.append(Double(pairs.count) / seconds)
    }
    rates.sort()
    let median = rates[rates.count / 2]
    print(String(format: "geodesy inverse, %@: %.2f M calls/s (median of 7; min %.2f, max %.2f)%@",
                 name, median / 1e6, rates.first! / 1e6, rates.last! / 1e6, sink == 42 ? " " : ""))
}

/// `../shared/data/geodesic/GeodTest-short.dat.gz` beside the checkout (found
/// by walking up from this source file), decompressed by /bin/gzip.
private func loadGeodTest() -> [(Coordinate, Coordinate)]? {
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while dir.path != "/" {
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { break }
        dir = dir.deletingLastPathComponent()
    }
    let file = dir.deletingLastPathComponent().appendingPathComponent("shared/data/geodesic/GeodTest-short.dat.gz")
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-dc", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
        let v = line.split(separator: " ").prefix(5).compactMap { Double($0.hasPrefix(".") ? "0" + $0 : String($0)) }
        guard v.count == 5 else { return nil }
        return (Coordinate(latitude: v[0], longitude: v[1]), Coordinate(latitude: v[3], longitude: v[4]))
    }
}

