#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// `feed_item` (the bridge): a followed device's find, stored once by (author, device, seq).
public struct FeedItemRequest: RequestBody {
    public var item: FeedItem

    public init(item: FeedItem) { self.item = item }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "feed_item", allowed: ["item"])
        item = try f.required(try f.object("item", allowed: ["author", "device", "seq", "time", "kind", "place",
                                                             "rating", "note", "club"]) { (i: Fields) throws(ProtocolError) in
            try FeedItem(i)
        }, "item", "the feed item object")
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "feed_item")
        try w.put("item", ItemFields(item: item))
    }

    /// The item with literal keys, as a request carries it.
    struct ItemFields: Encodable {
        var item: FeedItem
        func encode(to encoder: any Encoder) throws {
            var w = encoder.container(keyedBy: AnyKey.self)
            try w.encode(item.author, forKey: AnyKey("author"))
            try w.encode(item.device, forKey: AnyKey("device"))
            try w.encode(item.seq, forKey: AnyKey("seq"))
            try w.encode(ISO8601.format(item.time), forKey: AnyKey("time"))
            try w.encode(item.kind, forKey: AnyKey("kind"))
            try w.encode(["id": item.place.id, "name": item.place.name, "kind": item.place.kind], forKey: AnyKey("place"))
            try w.encodeIfPresent(item.rating, forKey: AnyKey("rating"))
            try w.encodeIfPresent(item.note, forKey: AnyKey("note"))
            try w.encodeIfPresent(item.club, forKey: AnyKey("club"))
        }
    }
}

/// `feed`: items newest first; without `world` only from devices the caller follows, plus
/// this car's own.
public struct FeedRequest: RequestBody {
    public var world: Bool
    public var limit: Int
    /// Only items older than this (paging).
    public var before: Date?

    public init(world: Bool = false, limit: Int = 50, before: Date? = nil) {
        self.world = world
        self.limit = limit
        self.before = before
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "feed", allowed: ["world", "limit", "before"])
        world = try f.bool("world") ?? false
        limit = try f.integer("limit", in: 1...FriendLimits.feedPage) ?? 50
        before = try f.time("before")
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "feed")
        try w.put("world", world)
        try w.put("limit", limit)
        try w.put("before", before.map(ISO8601.format))
    }
}

/// `like` / `unlike`: the caller's like of a feed item.
public struct LikeRequest: RequestBody {
    public var item: FeedItemID
    public var like: Bool

    public init(item: FeedItemID, like: Bool = true) {
        self.item = item
        self.like = like
    }

    init(_ decoder: any Decoder, like: Bool) throws(ProtocolError) {
        let name = like ? "like" : "unlike"
        let f = try Fields(decoder, command: name, allowed: ["item"])
        let s = try f.requiredString("item", max: 2 * FriendID.partLength + 18, what: "a feed item id USER/DEVICE/SEQ")
        guard let id = FeedItemID(parsing: s) else {
            throw ProtocolError(.badField, command: name, field: "item", "must be a feed item id USER/DEVICE/SEQ (such as jane/ute/1234), got \"\(s)\"")
        }
        item = id
        self.like = like
    }

    init(_ decoder: any Decoder) throws(ProtocolError) { try self.init(decoder, like: true) }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: like ? "like" : "unlike")
        try w.put("item", item.description)
    }
}

/// `like_received` (the bridge): someone liked (or unliked) one of this car's own items.
///
/// The same fields are the message the liker's bridge sends the author's on its own
/// `hotcold/LIKER/DEVICE/likes/AUTHOR/DEVICE` (QoS 1; the topic names the liker, and the
/// author's bridge refuses a `liker` that is not the topic's): this request under the broker's
/// class `FRIEND_LIKE` (hotcold-mqtt's `BrokerLike`; bridges before protocol 1.11 wrote and
/// read `LIKE`, the name the socket's own LIKE event has, and are still written that way),
/// `{"class":"FRIEND_LIKE","cmd":"like_received","item_seq":1234,"like":true,"liker":"bob/car","time":…}`,
/// so the author's bridge hands on exactly what arrived, checked by the fields below. The
/// author's daemon counts it once per liker, the latest `time` winning, so repeats and
/// reordering on the network change nothing.
public struct LikeReceivedRequest: RequestBody, Codable {
    /// The class the broker's message carries (since protocol 1.11).
    public static let brokerClass = "FRIEND_LIKE"
    /// The class bridges before 1.11 write and read; still written to a device not known to
    /// read the new one (phase one of the rename: both are read everywhere).
    public static let legacyBrokerClass = "LIKE"
    /// The classes this request tolerates (and no other).
    public static let brokerClasses: Set<String> = [brokerClass, legacyBrokerClass]
    public var itemSeq: Int
    public var liker: FriendID
    public var like: Bool
    public var time: Date

    public init(itemSeq: Int, liker: FriendID, like: Bool, time: Date) {
        self.itemSeq = itemSeq
        self.liker = liker
        self.like = like
        self.time = time
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        // `class`: the broker's LIKE message is this request under its class (see above).
        let f = try Fields(decoder, command: "like_received", allowed: ["item_seq", "liker", "like", "time", "class"])
        if let c = try f.string("class", max: 16), !Self.brokerClasses.contains(c) {
            throw ProtocolError(.badField, command: "like_received", field: "class",
                                "must be \(Self.brokerClass) (or \(Self.legacyBrokerClass)) when present, got \"\(c)\"")
        }
        itemSeq = try f.required(try f.integer("item_seq", in: 0...Limits.maxInteger), "item_seq", "the own item's seq")
        liker = try f.requiredFriend("liker")
        like = try f.required(try f.bool("like"), "like", "true or false")
        time = try f.required(try f.time("time"), "time", "an ISO-8601 time")
    }

    /// The request's fields, read and checked as a request's (literal keys).
    public init(from decoder: any Decoder) throws { try self.init(decoder) }

    public func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "like_received")
        try w.put("item_seq", itemSeq)
        try w.put("liker", liker)
        try w.put("like", like)
        try w.put("time", ISO8601.format(time))
    }
}
