import Foundation
import GRDB
@testable import HotColdStore
import HotColdDaemonTesting
import Testing

/// The outbox's store side: items are created with the local change, in its transaction.
@Suite(.offCooperativePool) struct OutboxStoreTests {
    static let catalogue = Data("""
        {"updated": "2024-01-01T00:00:00Z", "things": [
          {"id": "api:banana", "name": "Big Banana", "town": "Coffs Harbour", "state": "NSW", "lat": -30.2963, "lon": 153.1135}
        ]}
        """.utf8)

    @Test func ratingAndOutboxItemAreOneTransaction() throws {
        let f = try SyncFixture(); defer { f.remove() }
        try f.store.importData(Self.catalogue, file: "api.json", user: "alice")
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4, at: Date(timeIntervalSince1970: 1_700_000_000))
        let items = try f.store.outbox()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.kind == .rating && item.state == .pending && item.attempts == 0)
        #expect(UUID(uuidString: item.idempotencyKey) != nil)
        #expect(item.path == "bigthings/api:banana/ratings")
        #expect(item.payloadText == #"{"rated_at":"2023-11-14T22:13:20.000Z","stars":4,"user":"alice"}"#)

        // A failed local change queues nothing: no place, no rating, no item.
        #expect(throws: StoreError.noSuchPlace("api:nope")) { try f.store.rate(placeID: "api:nope", user: "alice", stars: 3) }
        #expect(try f.store.outbox().count == 1)

        // The outbox insert failing (a trigger on the pool's one writer connection) rolls the rating back too.
        try f.store.database.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'no'); END")
        }
        #expect(throws: (any Error).self) { try f.store.rate(placeID: "api:banana", user: "alice", stars: 1) }
        #expect(try f.store.userState(placeID: "api:banana", user: "alice").rating?.stars == 4)
        #expect(try f.store.outbox().count == 1)
    }

    @Test func onlyBigThingsGoToTheCatalogue() throws {
        let f = try SyncFixture(); defer { f.remove() }
        let loc = try f.store.addLocation(name: "Camp", at: .init(latitude: -33.9, longitude: 151.2), user: "alice")
        try f.store.rate(placeID: loc.id, user: "alice", stars: 5)
        #expect(try f.store.outbox().isEmpty)
    }

    @Test func submissionCarriesItsPhotoBytes() throws {
        let f = try SyncFixture(); defer { f.remove() }
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        let s = try f.store.submit(try Submission(user: "alice", name: "Big Wombat", address: "1 Main St, Wombat NSW",
                                                  seenAt: Date(), submittedBy: "Alice"),
                                   photo: SubmissionPhoto(filename: "w.png", contentType: "image/png", data: bytes))
        let item = try #require(try f.store.outbox().first)
        #expect(item.kind == .submission && item.submissionId == s.id && item.path == "bigthings/submissions")
        let o = try #require(try JSONSerialization.jsonObject(with: item.payload) as? [String: Any])
        let photo = try #require(o["photo"] as? [String: Any])
        #expect(photo["filename"] as? String == "w.png" && photo["content_type"] as? String == "image/png")
        #expect(Data(base64Encoded: photo["data_base64"] as? String ?? "") == bytes)
        #expect(o["address"] as? String == "1 Main St, Wombat NSW" && o["lat"] == nil)
    }
}
