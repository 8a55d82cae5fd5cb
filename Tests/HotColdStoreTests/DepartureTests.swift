import Foundation
import GRDB
import HotColdCore
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Departures close visits; open visits are what the daemon restores as "at" after a restart.
@Suite(.offCooperativePool) struct DepartureTests {
    let banana = "halans:d0577fb8cf"
    let t0 = Date(timeIntervalSince1970: 1_735_689_600)

    func store() throws -> StoreFixture {
        let f = try StoreFixture()
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        try f.store.importFile(at: data("geocaches/cachebox3-GC2T9RW.gpx"), user: f.user)
        return f
    }

    @Test func departureClosesTheOpenVisitOnce() throws {
        let f = try store(); defer { f.remove() }
        try f.store.recordArrival(placeID: banana, user: "alice", at: t0, episode: "e1")
        try f.store.recordArrival(placeID: "GC2T9RW", user: "alice", at: t0, episode: "e2")
        try f.store.recordArrival(placeID: banana, user: "bob", at: t0, episode: "e1")
        #expect(try f.store.openArrivals(user: "alice") == [banana, "GC2T9RW"])

        let left = t0.addingTimeInterval(600)
        #expect(try f.store.recordDeparture(placeID: banana, user: "alice", at: left) == 1)
        // A retried departure closes nothing more, and keeps the first time.
        #expect(try f.store.recordDeparture(placeID: banana, user: "alice", at: left.addingTimeInterval(5)) == 0)
        #expect(try f.store.openArrivals(user: "alice") == ["GC2T9RW"])
        #expect(try f.store.openArrivals(user: "bob") == [banana])
        let visit = try f.store.userState(placeID: banana, user: "alice").visits.first
        #expect(visit?.departedAt == left)
    }

    @Test func manualVisitsAreNeverOpen() throws {
        let f = try store(); defer { f.remove() }
        try f.store.markSeen(placeID: banana, user: "alice", at: t0)
        #expect(try f.store.openArrivals(user: "alice").isEmpty)
        #expect(try f.store.recordDeparture(placeID: banana, user: "alice", at: t0) == 0)
        #expect(try f.store.userState(placeID: banana, user: "alice").visits.first?.departedAt == nil)
    }

    @Test func visitsFromBeforeTheMigrationCountAsDeparted() throws {
        let dir = try TemporaryDirectory("hotcold-v3"); defer { dir.remove() }
        let path = dir.path("v2.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v2-outbox")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO place (id, kind, name, latitude, longitude, active, search_text)
                VALUES ('GC2T9RW', 'geocache', 'der Hampir', 49.349817, 8.62925, 1, 'der hampir');
                INSERT INTO visit (place_id, user, visited_at, method, episode)
                VALUES ('GC2T9RW', 'alice', '2024-03-01 02:03:04.000', 'automatic', 'e1');
                INSERT INTO visit (place_id, user, visited_at, method)
                VALUES ('GC2T9RW', 'alice', '2024-03-02 02:03:04.000', 'manual');
                """)
        }
        try queue.close()
        let store = try Store.open(path: path)
        // Their departure was never recorded: closed with their arrival time, not restored.
        #expect(try store.openArrivals(user: "alice").isEmpty)
        let visits = try store.userState(placeID: "GC2T9RW", user: "alice").visits
        #expect(visits.count == 2)
        #expect(visits.first { $0.method == .automatic }.map { $0.departedAt == $0.visitedAt } == true)
        #expect(visits.first { $0.method == .manual }?.departedAt == nil)
        // New arrivals are open again.
        try store.recordArrival(placeID: "GC2T9RW", user: "alice", at: Date(), episode: "e2")
        #expect(try store.openArrivals(user: "alice") == ["GC2T9RW"])
    }

    @Test func lockedAndFullDatabasesAreTransientOthersAreNot() throws {
        let f = try store(); defer { f.remove() }
        // A real lock from another process: the store's write fails busy after its timeout.
        try #require(SQLiteLockHolder.available, "sqlite3 is not installed (scripts/setup installs it)")
        let lock = try SQLiteLockHolder(database: f.dir.path("hotcold.sqlite"))
        var busy: (any Error)?
        do { try f.store.recordArrival(placeID: banana, user: "alice", at: t0, episode: "e1") } catch { busy = error }
        lock.release()
        #expect(busy.map(Store.isTransient) == true, "\(String(describing: busy))")
        var missing: (any Error)?
        do { try f.store.recordArrival(placeID: "nope", user: "alice", at: t0, episode: "e1") } catch { missing = error }
        #expect(missing.map(Store.isTransient) == false)
        #expect(Store.isTransient(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(!Store.isTransient(DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
    }
}
