import Foundation
import GRDB
import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import Testing

/// This car's own record items belong to the user who rated or noted: listed to that user and
/// to the administrator (`seesEveryone`), never to another user, with or without `world`. Items
/// kept before items had owners (a v7 database) say nobody's: their records are listed to
/// the administrator alone, their arrivals (the car's) to everyone.
@Suite(.offCooperativePool) struct FeedOwnerTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000)

    static func own(_ seq: Int, kind: String = "record", place: String = "p", note: String? = nil) -> FeedItem {
        FeedItem(author: "self", device: "self", seq: seq, time: t0.addingTimeInterval(Double(seq)), kind: kind,
                 place: .init(id: place, name: "Place \(place)", kind: "bigthing"), note: note)
    }

    static func notes(_ entries: [FeedEntry]) -> Set<String> { Set(entries.compactMap(\.item.note)) }

    @Test func anOwnRecordIsItsOwnersAndTheAdministrators() throws {
        let dir = try TemporaryDirectory("hotcold-feed-owner"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        try store.addFeedItem(Self.own(1, place: "a", note: "alice's"), owner: "alice")
        try store.addFeedItem(Self.own(2, place: "b", note: "root's"), owner: "root")
        try store.addFeedItem(Self.own(3, kind: "arrived", place: "c"))
        for world in [false, true] {
            let alice = try store.feed(user: "alice", world: world, limit: 50, before: nil)
            #expect(Self.notes(alice) == ["alice's"] && alice.count == 2, "\(alice)")
            let bob = try store.feed(user: "bob", world: world, limit: 50, before: nil)
            #expect(bob.map(\.item.kind) == ["arrived"], "\(bob)")
            let admin = try store.feed(user: "root", world: world, limit: 50, before: nil, seesEveryone: true)
            #expect(Self.notes(admin) == ["alice's", "root's"] && admin.count == 3, "\(admin)")
        }
    }

    @Test func recordsKeptBeforeOwnersAreTheAdministratorsOnly() throws {
        let dir = try TemporaryDirectory("hotcold-feed-owner"); defer { dir.remove() }
        let path = dir.path("v7.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v7-feed-zero-stars")
        try queue.write { db in
            for (seq, kind, note) in [(1, "record", "whose? nobody knows"), (2, "arrived", nil), (3, "record", nil)] {
                try db.execute(sql: """
                    INSERT INTO feed_item (author, device, seq, time, kind, place_id, place_name, place_kind, note, received_at)
                    VALUES (?, ?, ?, '2026-11-25 10:00:00.000', ?, 'p', 'P', 'bigthing', ?, '2026-11-25 10:00:00.000')
                    """, arguments: [seq == 3 ? "jane" : "self", seq == 3 ? "ute" : "self", seq, kind, note])
            }
        }
        try queue.close()
        let store = try Store.open(path: path)
        let bob = try store.feed(user: "bob", world: true, limit: 50, before: nil)
        #expect(bob.map(\.item.seq).sorted() == [2, 3], "the car's arrival and a friend's record, not the unowned own record: \(bob)")
        let admin = try store.feed(user: "root", world: true, limit: 50, before: nil, seesEveryone: true)
        #expect(admin.count == 3 && Self.notes(admin) == ["whose? nobody knows"], "\(admin)")
    }
}
