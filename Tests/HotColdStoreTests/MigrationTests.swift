import Foundation
import GRDB
import HotColdCore
@testable import HotColdStore
import HotColdTestSupport
import Testing

@Suite struct MigrationTests {
    /// A database at the first schema (migration "v1" only, filled with plain SQL as that
    /// release would have) must open with today's code, migrate, and keep its data.
    @Test func firstSchemaOpensWithCurrentCode() throws {
        let dir = try TemporaryDirectory("hotcold-migration"); defer { dir.remove() }
        let path = dir.path("v1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v1")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO place (id, kind, name, latitude, longitude, active, search_text)
                VALUES ('GC2T9RW', 'geocache', 'der Hampir', 49.349817, 8.62925, 1, 'der hampir');
                INSERT INTO geocache (place_id, code) VALUES ('GC2T9RW', 'GC2T9RW');
                INSERT INTO visit (place_id, user, visited_at, method, episode)
                VALUES ('GC2T9RW', 'alice', '2024-03-01 02:03:04.000', 'automatic', 'e1');
                INSERT INTO rating (user, place_id, stars, rated_at) VALUES ('alice', 'GC2T9RW', 4, '2024-03-01 02:03:04.000');
                """)
        }
        try queue.close()
        let store = try Store.open(path: path)
        let migrator = StoreMigrations.migrator
        let completed = try store.database.read { db in try migrator.completedMigrations(db) }
        #expect(completed == migrator.migrations && completed.first == "v1" && completed.count >= 4)
        #expect(try store.database.read { db in try migrator.hasCompletedMigrations(db) })
        #expect(try store.place(id: "GC2T9RW")?.geocache?.code == "GC2T9RW")
        let state = try store.userState(placeID: "GC2T9RW", user: "alice")
        #expect(state.seen && state.rating?.stars == 4)
        // The arrival key still holds after migration.
        #expect(try store.recordArrival(placeID: "GC2T9RW", user: "alice", at: Date(), episode: "e1").isNew == false)
        // WAL is on for the store's connections.
        let mode = try store.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
