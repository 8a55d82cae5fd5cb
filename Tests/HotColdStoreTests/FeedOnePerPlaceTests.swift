import Foundation
import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import Testing

/// A record (rating, note) is one feed item per place and person: a newer one replaces the
/// item in place (rating, note, time and seq), an older one arriving late changes nothing, the
/// likes stay with it. Arrivals stay one item each.
@Suite(.offCooperativePool) struct FeedOnePerPlaceTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000)

    static func record(_ seq: Int, stars: Int?, note: String? = nil, author: String = "jane", device: String = "ute",
                       place: String = "GC2T9RW") -> FeedItem {
        FeedItem(author: author, device: device, seq: seq, time: t0.addingTimeInterval(Double(seq)), kind: "record",
                 place: .init(id: place, name: "der Hampir", kind: "geocache"), rating: stars, note: note)
    }

    @Test func sevenRatingsOfOneCacheAreOneItemWithTheLast() throws {
        let dir = try TemporaryDirectory("hotcold-feed-one"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        let taps = [3, 5, 0, 1, 4, 2, 0]
        for (i, stars) in taps.enumerated() { #expect(try store.addFeedItem(Self.record(100 + i, stars: stars)).isNew) }
        let feed = try store.feed(user: "alice", world: true, limit: 50, before: nil)
        #expect(feed.count == 1, "\(feed)")
        #expect(feed.first?.item.rating == 0 && feed.first?.id == "jane/ute/106", "the last tap, 0 stars: \(feed)")
        // A redelivery of an earlier tap is no news and changes nothing.
        #expect(try store.addFeedItem(Self.record(103, stars: 1)).isNew == false)
        #expect(try store.addFeedItem(Self.record(101, stars: 5)).isNew == false)
        #expect(try store.feed(user: "alice", world: true, limit: 50, before: nil).map(\.item.rating) == [0])
        // Another place, another device, an arrival: items of their own.
        try store.addFeedItem(Self.record(107, stars: 2, place: "GC1"))
        try store.addFeedItem(Self.record(5, stars: 2, device: "phone"))
        try store.addFeedItem(FeedItem(author: "jane", device: "ute", seq: 108, time: Self.t0, kind: "arrived",
                                       place: .init(id: "GC2T9RW", name: "der Hampir", kind: "geocache")))
        #expect(try store.feed(user: "alice", world: true, limit: 50, before: nil).count == 4)
    }

    @Test func aLikeStaysWithTheItemItsNewerRecordReplaces() throws {
        let dir = try TemporaryDirectory("hotcold-feed-one"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        try store.addFeedItem(Self.record(1, stars: 2, note: "meh"))
        #expect(try store.like(FeedItemID(parsing: "jane/ute/1")!, user: "alice", true) == .done(changed: true))
        let replaced = try store.addFeedItem(Self.record(2, stars: 5, note: "Found it at last"))
        #expect(replaced == .init(isNew: true, replaced: 1))
        let entry = try #require(try store.feed(user: "alice", world: true, limit: 5, before: nil).first)
        #expect(entry.id == "jane/ute/2" && entry.item.note == "Found it at last" && entry.likes == 1 && entry.likedByMe, "\(entry)")
    }

    @Test func ownRecordsAreOnePerPlaceAndUserAndTheirReceivedLikesFollow() throws {
        let dir = try TemporaryDirectory("hotcold-feed-one"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        try store.addFeedItem(Self.record(10, stars: 3, author: "self", device: "self"), owner: "alice")
        try store.addFeedItem(Self.record(11, stars: 1, author: "self", device: "self"), owner: "bob")
        #expect(try store.likeReceived(itemSeq: 10, liker: "jane/ute", true, at: Self.t0) == .done(changed: true))
        try store.addFeedItem(Self.record(12, stars: 4, note: "better", author: "self", device: "self"), owner: "alice")
        let alice = try store.feed(user: "alice", world: false, limit: 5, before: nil)
        #expect(alice.count == 1 && alice.first?.item.seq == 12 && alice.first?.item.rating == 4, "\(alice)")
        #expect(alice.first?.likes == 1 && alice.first?.likers == ["jane/ute"], "the friend's like follows the find: \(alice)")
        #expect(try store.feed(user: "bob", world: false, limit: 5, before: nil).map(\.item.rating) == [1], "bob's record is his own item")
    }
}
