// gpsd JSON → the daemon's line guard → libgps's own parser (gps_unpack) → the TPV translation
// → the proximity engine (hunt and roam) → event JSON lines.
//
// Invariants: nothing traps; every event line holds only finite numbers (no inf/nan), parses
// back through the protocol's `EventMessage` and re-encodes to the same bytes; distances are ≥ 0 and finite,
// bearings within [0, 360], tiers within the ladder.
import CGPS
import Foundation
import FuzzSupport
@testable import GPSInput
import HotColdCore

/// Targets spread over the globe, with one where the Coffs Harbour seed tracks run, one on the
/// antimeridian and the poles, so every branch of the geodesy is in reach.
let targets = [
    Target(id: "banana", name: "Big Banana", kind: .bigThing, coordinate: Coordinate(latitude: -30.2748, longitude: 153.1338)),
    Target(id: "delft", name: "Delft", coordinate: Coordinate(latitude: 52.0116, longitude: 4.3571)),
    Target(id: "null", name: "Null Island", coordinate: Coordinate(latitude: 0, longitude: 0)),
    Target(id: "am", name: "Antimeridian", coordinate: Coordinate(latitude: -16.5, longitude: 180)),
    Target(id: "np", name: "North Pole", coordinate: Coordinate(latitude: 90, longitude: 0)),
    Target(id: "sp", name: "South Pole", coordinate: Coordinate(latitude: -90, longitude: 45)),
]

nonisolated(unsafe) let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    memset(data, 0, MemoryLayout<gps_data_t>.size)
    var hunt = ProximityEngine(targets: targets, mode: .hunt)
    var roam = ProximityEngine(targets: targets, mode: .roam(radius: 10_000))
    var skySeen = false
    var lines = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        lines += 1
        if lines > 200 { break }
        // The daemon hands libgps only what its guard accepts (libgps hangs on some lines).
        guard GPSDLineGuard.accepts(ArraySlice(line)) else { continue }
        var text = Array(line)
        text.append(0)
        data.pointee.set = 0
        _ = text.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { gps_unpack($0, data) }
        }
        if GPSDFixTranslation.isSky(data) { skySeen = true }
        guard case .fix(let fix, _)? = GPSDFixTranslation.input(from: data, skySeen: skySeen, receivedAt: ContinuousClock.now) else {
            continue
        }
        for event in hunt.process(fix) { checkEvent(event) }
        for event in roam.process(fix) { checkEvent(event) }
        for event in hunt.advance(to: fix.time.addingTimeInterval(3600)) { checkEvent(event) }
    }
}
