import Foundation
import GRDB
import HotColdCore
@testable import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Per-user quotas, ownership of custom locations, and one pending rating per user and place,
/// on a real SQLite file.
@Suite(.offCooperativePool) struct QuotaTests {
    static let catalogue = Data("""
        {"updated": "2024-01-01T00:00:00Z", "things": [
          {"id": "api:banana", "name": "Big Banana", "town": "Coffs Harbour", "state": "NSW", "lat": -30.2963, "lon": 153.1135},
          {"id": "api:prawn", "name": "Big Prawn", "town": "Ballina", "state": "NSW", "lat": -28.8668, "lon": 153.5638}
        ]}
        """.utf8)

    func store(_ quotas: StoreQuotas) throws -> (Store, TemporaryDirectory) {
        let dir = try TemporaryDirectory("hotcold-quota")
        let store = try Store.open(path: dir.path("q.sqlite"), quotas: quotas)
        try store.importData(Self.catalogue, file: "api.json", user: "alice")
        return (store, dir)
    }

    let here = Coordinate(latitude: -33.9, longitude: 151.2)

    @Test func customLocationsStopAtTheQuotaForThatUserOnly() throws {
        var q = StoreQuotas()
        q.locationsPerUser = 3
        let (s, dir) = try store(q); defer { dir.remove() }
        for i in 0..<3 { _ = try s.addLocation(name: "L\(i)", at: here, user: "alice") }
        #expect(throws: StoreError.quotaReached(quota: "locations_per_user", limit: 3, user: "alice")) {
            try s.addLocation(name: "one too many", at: here, user: "alice")
        }
        #expect(StoreError.quotaReached(quota: "locations_per_user", limit: 3, user: "alice").description
                    .contains("locations_per_user is 3"))
        _ = try s.addLocation(name: "Bob's", at: here, user: "bob")
        let count = try s.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM location WHERE created_by = 'alice'") }
        #expect(count == 3)
    }

    @Test func observationsNotesVisitsAndSubmissionsHaveQuotas() throws {
        var q = StoreQuotas()
        q.observationsPerUser = 2
        q.notesPerUser = 1
        q.manualVisitsPerUser = 2
        q.pendingSubmissionsPerUser = 1
        let (s, dir) = try store(q); defer { dir.remove() }
        for _ in 0..<2 {
            _ = try s.addObservation(classification: .bird, title: "Kookaburra", description: nil, date: Date(), coordinate: nil, user: "alice")
        }
        #expect(throws: StoreError.quotaReached(quota: "observations_per_user", limit: 2, user: "alice")) {
            try s.addObservation(classification: .bird, title: "Magpie", description: nil, date: Date(), coordinate: nil, user: "alice")
        }
        _ = try s.setNote(placeID: "api:banana", user: "alice", text: "yellow")
        _ = try s.setNote(placeID: "api:banana", user: "alice", text: "very yellow")   // replacing is no new note
        #expect(throws: StoreError.quotaReached(quota: "notes_per_user", limit: 1, user: "alice")) {
            try s.setNote(placeID: "api:prawn", user: "alice", text: "pink")
        }
        _ = try s.markSeen(placeID: "api:banana", user: "alice")
        _ = try s.markSeen(placeID: "api:banana", user: "alice")
        #expect(throws: StoreError.quotaReached(quota: "manual_visits_per_user", limit: 2, user: "alice")) {
            try s.markSeen(placeID: "api:prawn", user: "alice")
        }
        _ = try s.submit(try Submission(user: "alice", name: "Big Wombat", address: "1 Main St", seenAt: Date()))
        #expect(throws: StoreError.quotaReached(quota: "pending_submissions_per_user", limit: 1, user: "alice")) {
            try s.submit(try Submission(user: "alice", name: "Big Possum", address: "2 Main St", seenAt: Date()))
        }
        // Nothing half-written: one submission row, one queued item.
        #expect(try s.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM submission") } == 1)
        #expect(try s.outbox(states: [.pending]).filter { $0.kind == .submission }.count == 1)
    }

    @Test func anImportOverTheObservationQuotaStoresNothing() throws {
        var q = StoreQuotas()
        q.observationsPerUser = 5
        let (s, dir) = try store(q); defer { dir.remove() }
        #expect(throws: StoreError.quotaReached(quota: "observations_per_user", limit: 5, user: "alice")) {
            try s.importFile(at: TestData.url("challenges/field-observations.json"), user: "alice")
        }
        #expect(try s.observations().isEmpty)
    }

    @Test func onlyTheCreatorMayRenameACustomLocation() throws {
        let (s, dir) = try store(StoreQuotas()); defer { dir.remove() }
        let camp = try s.addLocation(name: "Camp", at: here, user: "alice")
        #expect(throws: StoreError.notOwner(id: camp.id, owner: "alice", user: "bob")) {
            try s.renameLocation(placeID: camp.id, to: "Bob's now", by: "bob")
        }
        // A uid without a passwd entry is recorded as "#1234", which no real user can be called.
        #expect(throws: StoreError.notOwner(id: camp.id, owner: "alice", user: "#1234")) {
            try s.renameLocation(placeID: camp.id, to: "Mine", by: "#1234")
        }
        #expect(try s.place(id: camp.id)?.place.name == "Camp")
        #expect(try s.renameLocation(placeID: camp.id, to: "Base camp", by: "alice").name == "Base camp")
        #expect(CurrentUser.unknownUserName(uid: 1234) == "#1234")
    }

    @Test func onlyTheCreatorMayDeleteACustomLocationAndNeverOthersHistory() throws {
        let (s, dir) = try store(StoreQuotas()); defer { dir.remove() }
        let camp = try s.addLocation(name: "Camp", at: here, user: "alice")
        _ = try s.markSeen(placeID: camp.id, user: "alice")
        #expect(throws: StoreError.notOwner(id: camp.id, owner: "alice", user: "bob")) {
            try s.deleteLocation(placeID: camp.id, by: "bob")
        }
        #expect(throws: StoreError.notALocation(id: "api:banana", kind: "bigthing")) {
            try s.deleteLocation(placeID: "api:banana", by: "alice")
        }
        _ = try s.setNote(placeID: camp.id, user: "bob", text: "nice spot")
        #expect(throws: StoreError.placeInUse(id: camp.id, otherUsers: 1)) {
            try s.deleteLocation(placeID: camp.id, by: "alice")
        }
        _ = try s.setNote(placeID: camp.id, user: "bob", text: "")
        try s.deleteLocation(placeID: camp.id, by: "alice")
        #expect(try s.place(id: camp.id) == nil)
        #expect(try s.visits(user: "alice").isEmpty)
        #expect(try s.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM location") } == 0)
    }

    @Test func migrationKeepsOnlyTheLatestPendingRatingPerUserAndPlace() throws {
        let dir = try TemporaryDirectory("hotcold-quota-migration"); defer { dir.remove() }
        let path = dir.path("v2.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v2-outbox")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO outbox (kind, idempotency_key, path, payload, user, place_id, state, created_at, next_attempt_at)
                VALUES ('rating', 'k1', 'p', x'7b7d', 'alice', 'api:banana', 'pending', '2024-01-01', '2024-01-01'),
                       ('rating', 'k2', 'p', x'7b7d', 'alice', 'api:banana', 'pending', '2024-01-02', '2024-01-02'),
                       ('rating', 'k3', 'p', x'7b7d', 'alice', 'api:banana', 'delivered', '2024-01-03', '2024-01-03'),
                       ('rating', 'k4', 'p', x'7b7d', 'bob', 'api:banana', 'pending', '2024-01-04', '2024-01-04')
                """)
        }
        try queue.close()
        let s = try Store.open(path: path)
        #expect(try s.outbox().map(\.idempotencyKey) == ["k2", "k3", "k4"])
    }

    @Test func aReRatingReplacesTheQueuedRatingWithAFreshKey() throws {
        let (s, dir) = try store(StoreQuotas()); defer { dir.remove() }
        try s.rate(placeID: "api:banana", user: "alice", stars: 2)
        let first = try #require(try s.outbox(states: [.pending]).first)
        try s.rate(placeID: "api:banana", user: "alice", stars: 5)
        try s.rate(placeID: "api:prawn", user: "alice", stars: 3)
        try s.rate(placeID: "api:banana", user: "bob", stars: 1)
        let pending = try s.outbox(states: [.pending])
        #expect(pending.count == 3)
        let banana = try #require(pending.first { $0.user == "alice" && $0.placeId == "api:banana" })
        #expect(banana.payloadText.contains(#""stars":5"#))
        #expect(banana.idempotencyKey != first.idempotencyKey && banana.id != first.id)
        // A delivered rating stays as history; the next re-rating queues anew beside it.
        try s.markOutboxDelivered(id: banana.id!, status: 201, response: Data("{}".utf8), catalogue: nil)
        try s.rate(placeID: "api:banana", user: "alice", stars: 4)
        let all = try s.outbox().filter { $0.user == "alice" && $0.placeId == "api:banana" }
        #expect(all.map(\.state) == [.delivered, .pending])
        // The database itself refuses a second pending rating for the same user and place.
        #expect(throws: DatabaseError.self) {
            try s.database.write { db in
                var dup = all[1]
                dup.id = nil
                dup.idempotencyKey = UUID().uuidString
                try dup.insert(db)
            }
        }
    }
}
