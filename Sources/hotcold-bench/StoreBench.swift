import Foundation
import GRDB
import HotColdCore
import HotColdStore

/// Store figures: nearest-10 among 100k places, loading 100k places for roaming, and the
/// 500-cache pocket query import. Prints medians; run in release:
/// `swift build -c release --product hotcold-bench && .build/release/hotcold-bench`.
func benchStore() {
    do {
        try runStoreBench()
    } catch {
        print("store bench failed: \(error)")
    }
}

private func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

private func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

private func runStoreBench() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-bench-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }

    // 100k random places over Australia's box, imported as one GPX file (one transaction).
    var rng = SystemRandomNumberGenerator()
    var quotas = StoreQuotas()
    quotas.locationsPerUser = 200_000
    let store = try Store.open(path: dir.appendingPathComponent("bench.sqlite").path, quotas: quotas)
    let n = 100_000
    var catalogueGPX = #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="hotcold-bench" xmlns="http://www.topografix.com/GPX/1/1">"#
    for i in 0..<n {
        let lat = Double.random(in: -44...(-10), using: &rng), lon = Double.random(in: 112...154, using: &rng)
        catalogueGPX += #"<wpt lat="\#(lat)" lon="\#(lon)"><name>Place \#(i)</name></wpt>"#
    }
    catalogueGPX += "</gpx>"
    let report = try store.importData(Data(catalogueGPX.utf8), file: "bench.gpx", user: "bench")
    guard report.inserted == n else { fatalError("the bench import stored \(report.inserted) of \(n) places") }

    var loads: [Double] = []
    var index = SpatialIndex([])
    for _ in 0..<5 {
        loads.append(try seconds { index = try store.spatialIndex(filter: TargetFilter(includeInactive: true)) })
    }
    print(String(format: "store: load %d places for roaming (SELECT + index build): median %.0f ms", index.count, median(loads) * 1000))

    let queries = (0..<2000).map { _ in
        Coordinate(latitude: Double.random(in: -44...(-10), using: &rng), longitude: Double.random(in: 112...154, using: &rng))
    }
    var perQuery: [Double] = []
    var sink = 0.0
    for _ in 0..<7 {
        let t = seconds {
            for q in queries { sink += index.nearest(to: q, k: 10).last?.distance ?? 0 }
        }
        perQuery.append(t / Double(queries.count))
    }
    print(String(format: "store: nearest-10 among %d places: median %.1f µs/query (checksum %.0f)",
                 index.count, median(perQuery) * 1e6, sink.truncatingRemainder(dividingBy: 1000)))

    let shared = ProcessInfo.processInfo.environment["HOTCOLD_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    let gpx = shared.appendingPathComponent("geocaches/cachebox3-6004539_HomeZone.gpx")
    var imports: [Double] = []
    for run in 0..<5 {
        let s = try Store.open(path: dir.appendingPathComponent("gpx\(run).sqlite").path)
        var count = 0
        imports.append(try seconds { count = try s.importFile(at: gpx, user: "bench").inserted })
        precondition(count == 500, "expected 500 caches, got \(count)")
    }
    print(String(format: "store: import the 500-cache pocket query (3.9 MB GPX): median %.0f ms", median(imports) * 1000))
}
