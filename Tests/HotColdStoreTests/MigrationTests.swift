import Foundation
import GRDB
import HotColdCore
@testable import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct MigrationTests {
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

/// v7 rebuilds `feed_item` so a shared rating may be 0 stars: what a v6 database held (items,
/// the likes on them, the id counter) is kept.
@Suite(.offCooperativePool) struct FeedZeroStarsMigrationTests {
    @Test func aV6FeedKeepsItsItemsLikesAndIdsAndTakesZeroStars() throws {
        let dir = try TemporaryDirectory("hotcold-migration-v7"); defer { dir.remove() }
        let path = dir.path("v6.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v6-friends")
        try queue.write { db in
            for seq in 1...3 {
                try db.execute(sql: """
                    INSERT INTO feed_item (author, device, seq, time, kind, place_id, place_name, place_kind, rating, received_at)
                    VALUES ('jane', 'ute', ?, '2026-11-25 10:00:00.000', 'record', 'p', 'P', 'bigthing', 4, '2026-11-25 10:00:00.000')
                    """, arguments: [seq])
            }
            try db.execute(sql: "INSERT INTO feed_like (user, item_id, time) VALUES ('alice', 2, '2026-11-25 10:00:01.000')")
            // The newest item was evicted: its id must not come back.
            try db.execute(sql: "DELETE FROM feed_item WHERE id = 3")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE feed_item SET rating = 0 WHERE id = 1")
            }
        }
        try queue.close()
        let store = try Store.open(path: path)
        try store.database.write { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_item") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT item_id FROM feed_like WHERE user = 'alice'") == 2)
            try db.execute(sql: "UPDATE feed_item SET rating = 0 WHERE id = 1")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE feed_item SET rating = 6 WHERE id = 1") }
            try db.execute(sql: """
                INSERT INTO feed_item (author, device, seq, time, kind, place_id, place_name, place_kind, received_at)
                VALUES ('jane', 'ute', 9, '2026-11-25 10:00:00.000', 'arrived', 'p', 'P', 'bigthing', '2026-11-25 10:00:00.000')
                """)
            #expect(db.lastInsertedRowID == 4)
            // Deleting an item still takes its likes with it (the reference survived the rename).
            try db.execute(sql: "DELETE FROM feed_item WHERE id = 2")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_like") == 0)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
    }
}
