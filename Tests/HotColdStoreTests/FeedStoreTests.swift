import Foundation
import GRDB
import HotColdProtocol
import HotColdStore
import Testing

/// The feed in SQLite: once per (author, device, seq), the cap drops the oldest for good, and
/// likes counted once per liker.
@Suite struct FeedStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000)

    static func item(_ seq: Int, author: String = "jane", device: String = "ute", minutes: Double? = nil) -> FeedItem {
        FeedItem(author: author, device: device, seq: seq, time: t0.addingTimeInterval((minutes ?? Double(seq)) * 60), kind: "arrived",
                 place: .init(id: "p\(seq)", name: "Place \(seq)", kind: "bigthing"))
    }

    @Test func theCapDropsTheOldestAndTheyNeverComeBack() throws {
        let f = try StoreFixture(); defer { f.remove() }
        for seq in 1...8 { #expect(try f.store.addFeedItem(Self.item(seq), keep: 5)) }
        #expect(try f.count("SELECT COUNT(*) FROM feed_item") == 5)
        let kept = try f.store.feed(user: "alice", world: true, limit: 50, before: nil)
        #expect(kept.map(\.item.seq) == [8, 7, 6, 5, 4], "newest first")
        // A replay of a dropped item is a repeat, not new again; another device's is new.
        #expect(try f.store.addFeedItem(Self.item(2), keep: 5) == false)
        #expect(try f.store.addFeedItem(Self.item(2, device: "phone"), keep: 5) == true)
        #expect(try f.store.feed(user: "alice", world: true, limit: 2, before: Self.t0.addingTimeInterval(6.5 * 60)).map(\.item.seq) == [6, 5])
    }

    @Test func likesCountOncePerLikerAndGoWithTheirItem() throws {
        let f = try StoreFixture(); defer { f.remove() }
        _ = try f.store.addFeedItem(Self.item(1), keep: 2)
        let id = FeedItemID(parsing: "jane/ute/1")!
        #expect(try f.store.like(id, user: "alice", true) == .done(changed: true))
        #expect(try f.store.like(id, user: "alice", true) == .done(changed: false))
        #expect(try f.store.like(id, user: "bob", true) == .done(changed: true))
        let entry = try f.store.feed(user: "alice", world: true, limit: 5, before: nil).first
        #expect(entry?.likes == 2 && entry?.likedByMe == true && entry?.likers == ["alice", "bob"])
        #expect(try f.store.like(FeedItemID(parsing: "jane/ute/9")!, user: "alice", true) == .noSuchItem)
        // The item dropped by the cap takes its likes with it.
        _ = try f.store.addFeedItem(Self.item(2), keep: 2)
        _ = try f.store.addFeedItem(Self.item(3), keep: 2)
        #expect(try f.count("SELECT COUNT(*) FROM feed_like") == 0)
    }

    @Test func followsArePerUserAndVersioned() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let jane = FriendID(parsing: "jane/ute")!
        #expect(try f.store.follow(jane, user: "alice") == .init(changed: true, version: 1))
        #expect(try f.store.follow(jane, user: "bob") == .init(changed: true, version: 2))
        #expect(try f.store.follow(jane, user: "bob") == .init(changed: false, version: 2))
        #expect(try f.store.following(user: nil).follows.map(\.who) == ["jane/ute"], "the union")
        #expect(try f.store.unfollow(jane, user: "alice") == .init(changed: true, version: 3))
        #expect(try f.store.following(user: "alice").follows.isEmpty)
        #expect(try f.store.isFollowed(jane))
        _ = try f.store.addFeedItem(Self.item(1))
        #expect(try f.store.feed(user: "alice", world: false, limit: 5, before: nil).isEmpty)
        #expect(try f.store.feed(user: "bob", world: false, limit: 5, before: nil).count == 1)
    }
}
