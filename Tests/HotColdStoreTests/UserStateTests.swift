import Foundation
import GRDB
import HotColdCore
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct UserStateTests {
    func store() throws -> StoreFixture {
        let f = try StoreFixture()
        try f.store.importFile(at: data("geocaches/cachebox3-GC2T9RW.gpx"), user: f.user)
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        return f
    }

    @Test func recordArrivalIsIdempotentPerEpisode() throws {
        let f = try store(); defer { f.remove() }
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try f.store.recordArrival(placeID: "GC2T9RW", user: "alice", at: t, episode: "ep-1")
        #expect(first.isNew && first.visit.id != nil && first.visit.method == .automatic)
        let replay = try f.store.recordArrival(placeID: "GC2T9RW", user: "alice", at: t.addingTimeInterval(5), episode: "ep-1")
        #expect(!replay.isNew && replay.visit == first.visit)
        #expect(try f.count("SELECT count(*) FROM visit") == 1)
        // Another episode, or another user, is another visit.
        try f.store.recordArrival(placeID: "GC2T9RW", user: "alice", at: t.addingTimeInterval(3600), episode: "ep-2")
        try f.store.recordArrival(placeID: "GC2T9RW", user: "bob", at: t, episode: "ep-1")
        #expect(try f.count("SELECT count(*) FROM visit") == 3)
        #expect(throws: StoreError.noSuchPlace("GCNOPE")) {
            try f.store.recordArrival(placeID: "GCNOPE", user: "alice", at: t, episode: "x")
        }
    }

    @Test func seenFavouriteRatingNoteArePerUser() throws {
        let f = try store(); defer { f.remove() }
        let id = "halans:d0577fb8cf"
        try f.store.markSeen(placeID: id, user: "alice")
        try f.store.setFavourite(placeID: id, user: "alice", true)
        try f.store.rate(placeID: id, user: "alice", stars: 4)
        try f.store.setNote(placeID: id, user: "alice", text: "Great milkshakes")
        let a = try f.store.userState(placeID: id, user: "alice")
        #expect(a.seen && a.favourite && a.rating?.stars == 4 && a.note?.wordCount == 2)
        let b = try f.store.userState(placeID: id, user: "bob")
        #expect(!b.seen && !b.favourite && b.rating == nil && b.note == nil)
        try f.store.markUnseen(placeID: id, user: "alice")
        #expect(try f.store.userState(placeID: id, user: "alice").seen == false)
        #expect(throws: StoreError.invalidRating(6)) { try f.store.rate(placeID: id, user: "alice", stars: 6) }
        #expect(throws: StoreError.noteTooLong(characters: 501, limit: 500)) {
            try f.store.setNote(placeID: id, user: "alice", text: String(repeating: "a", count: 501))
        }
    }

    @Test func targetsFilterByKindFavouriteUnseenAndRadius() throws {
        let f = try store(); defer { f.remove() }
        let all = try f.store.targets(filter: TargetFilter(kinds: [.bigThing]))
        // Demolished and removed things are left out of roaming by default.
        #expect(all.count == 476 - 26)
        #expect(try f.store.targets(filter: TargetFilter(kinds: [.bigThing], includeInactive: true)).count == 476)
        try f.store.setFavourite(placeID: "halans:d0577fb8cf", user: "alice", true)
        #expect(try f.store.targets(filter: TargetFilter(favouritesOf: "alice")).map(\.id) == ["halans:d0577fb8cf"])
        try f.store.markSeen(placeID: all[0].id, user: "alice")
        let unseen = try f.store.targets(filter: TargetFilter(kinds: [.bigThing], unseenBy: "alice"))
        #expect(unseen.count == all.count - 1 && !unseen.contains { $0.id == all[0].id })
        let coffs = Coordinate(latitude: -30.2963, longitude: 153.1135)
        let near = SpatialIndex(all).within(20_000, of: coffs).map(\.target)
        #expect(near.contains { $0.id == "halans:d0577fb8cf" })
        #expect(near.allSatisfy { coffs.distance(to: $0.coordinate) <= 20_000 })
        let brute = all.filter { coffs.distance(to: $0.coordinate) <= 20_000 }
        #expect(Set(near.filter { $0.kind == .bigThing }.map(\.id)) == Set(brute.map(\.id)))
    }

    @Test func observationsAndSubmissions() throws {
        let f = try store(); defer { f.remove() }
        let o = try f.store.addObservation(classification: .reptile, title: "Water dragon", description: nil,
                                           date: Date(timeIntervalSince1970: 1_700_000_000),
                                           coordinate: Coordinate(latitude: -33.8, longitude: 151.2), user: "alice")
        #expect(try f.store.observations(user: "alice") == [o])
        let s = try f.store.submit(try Submission(user: "alice", name: "Big Wombat", address: "Main St, Scotts Head",
                                                  seenAt: Date(), submittedBy: "Alice"))
        #expect(s.id != nil)
        #expect(throws: StoreError.submissionNeedsPlace) {
            try Submission(user: "alice", name: "Big Nothing", seenAt: Date())
        }
    }
}
