import Foundation
import GRDB
import HotColdProtocol
import HotColdStore
import HotColdDaemonTesting
import Testing

/// The feed in SQLite: once per (author, device, seq), the cap drops the oldest for good, and
/// likes counted once per liker.
@Suite(.offCooperativePool) struct FeedStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000)

    static func item(_ seq: Int, author: String = "jane", device: String = "ute", minutes: Double? = nil) -> FeedItem {
        FeedItem(author: author, device: device, seq: seq, time: t0.addingTimeInterval((minutes ?? Double(seq)) * 60), kind: "arrived",
                 place: .init(id: "p\(seq)", name: "Place \(seq)", kind: "bigthing"))
    }

    @Test func theCapDropsTheOldestAndTheyNeverComeBack() throws {
        let f = try StoreFixture(); defer { f.remove() }
        for seq in 1...8 { #expect(try f.store.addFeedItem(Self.item(seq), keep: 5).isNew) }
        #expect(try f.count("SELECT COUNT(*) FROM feed_item") == 5)
        let kept = try f.store.feed(user: "alice", world: true, limit: 50, before: nil)
        #expect(kept.map(\.item.seq) == [8, 7, 6, 5, 4], "newest first")
        // A replay of a dropped item is a repeat, not new again; another device's is new.
        #expect(try f.store.addFeedItem(Self.item(2), keep: 5).isNew == false)
        #expect(try f.store.addFeedItem(Self.item(2, device: "phone"), keep: 5).isNew == true)
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

/// Issue 28, a fair feed: kept by the time received, each friend's device its share, this
/// car's own finds never pushed out by friends', every drop counted.
@Suite(.offCooperativePool) struct FairFeedTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000)

    static func item(_ seq: Int, _ who: String, claimed: Date) -> FeedItem {
        let id = FriendID(parsing: who)
        return FeedItem(author: id?.user ?? FriendID.selfAuthor, device: id?.device ?? FriendID.selfAuthor, seq: seq, time: claimed,
                        kind: "arrived", place: .init(id: "p\(seq)", name: "Place \(seq)", kind: "bigthing"))
    }

    @Test func aFloodingDeviceKeepsItsShareAndEveryDropIsCounted() throws {
        let f = try StoreFixture(); defer { f.remove() }
        var dropped = 0
        for seq in 1...4 { dropped += try f.store.addFeedItem(Self.item(seq, "ann/ute", claimed: Self.t0), keep: 100, perDevice: 10).dropped }
        // A burst of 40 from one device: its 10 newest received stay, 30 go, counted.
        for seq in 1...40 {
            dropped += try f.store.addFeedItem(Self.item(seq, "bob/car", claimed: Self.t0), keep: 100, perDevice: 10).dropped
        }
        #expect(dropped == 30 && f.store.feedItemsDropped == 30)
        #expect(try f.count("SELECT COUNT(*) FROM feed_item WHERE author = 'bob'") == 10)
        #expect(try f.count("SELECT MIN(seq) FROM feed_item WHERE author = 'bob'") == 31)
        #expect(try f.count("SELECT COUNT(*) FROM feed_item WHERE author = 'ann'") == 4, "ann's items are not bob's to push out")
    }

    @Test func theFeedKeepsByTimeReceivedNotTheTimeClaimed() throws {
        let f = try StoreFixture(); defer { f.remove() }
        // Ann's honest items first; then Bob's, claiming next year; then Cat's. Full (keep 5):
        // the largest holder's oldest received goes — Bob's — never Ann's for claiming less.
        for seq in 1...2 { try f.store.addFeedItem(Self.item(seq, "ann/ute", claimed: Self.t0), received: Self.t0, keep: 5) }
        for seq in 1...3 {
            try f.store.addFeedItem(Self.item(seq, "bob/car", claimed: Self.t0.addingTimeInterval(365 * 86_400)),
                                    received: Self.t0.addingTimeInterval(Double(seq)), keep: 5)
        }
        let added = try f.store.addFeedItem(Self.item(1, "cat/van", claimed: Self.t0), received: Self.t0.addingTimeInterval(10), keep: 5)
        #expect(added == .init(isNew: true, dropped: 1))
        let kept = try f.store.feed(user: "x", world: true, limit: 50, before: nil).map(\.id).sorted()
        #expect(kept == ["ann/ute/1", "ann/ute/2", "bob/car/2", "bob/car/3", "cat/van/1"], "\(kept)")
    }

    @Test func ownFindsAreNeverPushedOutByFriends() throws {
        let f = try StoreFixture(); defer { f.remove() }
        for seq in 1...3 { try f.store.addFeedItem(Self.item(seq, "self", claimed: Self.t0), received: Self.t0, keep: 5) }
        for seq in 1...20 {
            try f.store.addFeedItem(Self.item(seq, "bob/car", claimed: Self.t0), received: Self.t0.addingTimeInterval(Double(seq)), keep: 5)
        }
        #expect(try f.count("SELECT COUNT(*) FROM feed_item WHERE author = 'self'") == 3)
        #expect(try f.count("SELECT COUNT(*) FROM feed_item WHERE author = 'bob'") == 2)
        #expect(f.store.feedItemsDropped == 18)
    }
}
