// The full import into a real SQLite store (a fresh file in /dev/shm per input).
//
// Invariants: an import either succeeds and stores exactly the distinct places and
// observations it reports, or throws and stores nothing; a failure is an `ImportError` (named,
// with the file), never a raw database error; importing the same bytes again changes nothing.
import Foundation
import FuzzSupport
import GRDB
import HotColdStore

let directory = ScratchFile(name: "store").path
let path = directory + "/fuzz.sqlite"

/// What the file holds, read through a connection of its own (the store keeps its pool private).
func counts(_ store: Store) -> (places: Int, observations: Int) {
    do {
        return try DatabaseQueue(path: store.path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM place") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM observation") ?? -1)
        }
    } catch {
        fuzzCheck(false, "cannot count: \(error)")
        return (-1, -1)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let data = Data(bytes)
    // Inputs the parser refuses never reach the database; skip the costly store for them.
    guard let batch = try? Importer.parse(data, file: "fuzz", user: "fuzz") else { return }
    _ = batch
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let store: Store
    do { store = try Store.open(path: path) } catch {
        fuzzCheck(false, "cannot open a store at \(path): \(error)")
        return
    }
    let first: ImportReport
    do {
        first = try store.importData(data, file: "fuzz", user: "fuzz")
    } catch {
        let c = counts(store)
        fuzzCheck(c.places == 0 && c.observations == 0, "a failed import stored \(c): \(error)")
        fuzzCheck(error is ImportError, "the import failed with \(type(of: error)), not an ImportError: \(error)")
        return
    }
    let c = counts(store)
    fuzzCheck(first.updated == 0 && first.unchanged == 0 || c.places + c.observations > 0,
              "report \(first) but nothing stored")
    fuzzCheck(c.places + c.observations == first.inserted,
              "inserted \(first.inserted) but the store holds \(c)")
    do {
        let again = try store.importData(data, file: "fuzz", user: "fuzz")
        fuzzCheck(again.inserted == 0 && again.updated == 0,
                  "a second import of the same bytes inserted \(again.inserted), updated \(again.updated)")
        fuzzCheck(counts(store) == c, "a second import changed the counts")
    } catch {
        fuzzCheck(false, "the second import of bytes that imported once failed: \(error)")
    }
}
