import Foundation
import GRDB
import HotColdCore
@testable import HotColdStore
import HotColdTestSupport

/// A real SQLite file in a fresh temporary directory.
struct StoreFixture {
    let dir: TemporaryDirectory
    let store: Store
    let user = "tester"

    init() throws {
        dir = try TemporaryDirectory("hotcold-store")
        store = try Store.open(path: dir.path("hotcold.sqlite"))
    }

    func remove() { dir.remove() }

    func count(_ sql: String) throws -> Int {
        try store.database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    /// Every row of every table, as text: two equal dumps mean nothing changed.
    func dump() throws -> String {
        try store.database.read { db in
            var out = ""
            for table in ["place", "big_thing", "geocache", "waypoint", "location", "visit", "favourite",
                          "rating", "note", "submission", "observation"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") {
                    out += "\(table) \(row)\n"
                }
            }
            return out
        }
    }
}

func data(_ path: String) -> URL { TestData.url(path) }
