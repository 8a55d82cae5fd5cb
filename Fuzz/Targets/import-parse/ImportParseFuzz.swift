// The importers' parse step (format detection, the JSON reader, GPX, the Big Things catalogue
// and API list, GeoJSON, the locations feed, observations), no database.
//
// Invariants: nothing traps; parse throws only `ImportError`; what it accepts is storable:
// non-empty ids, valid coordinates, finite times; detection agrees with the parsed format.
import Foundation
import FuzzSupport
import HotColdCore
import HotColdFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let data = Data(bytes)
    let batch: ImportBatch
    do {
        batch = try Importer.parse(data, file: "fuzz", user: "fuzz")
    } catch {
        return
    }
    fuzzCheck((try? Importer.detect(data, file: "fuzz")) == batch.format, "detect disagrees with parse (\(batch.format))")
    for d in batch.places {
        fuzzCheck(!d.place.id.isEmpty, "place with an empty id")
        fuzzCheck(d.place.coordinate.isValid, "place \(d.place.id) at \(d.place.coordinate)")
        for w in d.waypoints { fuzzCheck(w.coordinate.isValid, "waypoint \(w.id) at \(w.coordinate)") }
        if let placed = d.geocache?.placedAt {
            fuzzCheck(placed.timeIntervalSince1970.isFinite, "geocache \(d.place.id) placed at \(placed)")
        }
    }
    for o in batch.observations {
        fuzzCheck(!o.id.isEmpty, "observation with an empty id")
        fuzzCheck(o.observedAt.timeIntervalSince1970.isFinite, "observation \(o.id) at \(o.observedAt)")
        fuzzCheck((o.latitude == nil) == (o.longitude == nil), "observation \(o.id) with half a position")
        if let c = o.coordinate { fuzzCheck(c.isValid, "observation \(o.id) at \(c)") }
    }
}
