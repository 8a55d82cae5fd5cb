import Foundation
import GRDB
import HotColdProtocol

/// The feed of finds: items stored once by (author, device, seq), a record once per place and
/// person (a newer one replaces it in place), kept by the time they were
/// received here (a sender's `time` is its claim, not a yardstick: a device claiming next
/// year would otherwise push everyone else's out), each friend's device at most
/// ``FriendLimits/feedItemsPerDevice`` and ``FriendLimits/feedItems`` in all, this car's own
/// finds (author `self`) never dropped for friends' items; every item dropped is counted
/// (``feedItemsDropped``), plus the likes this car's users give, and the likes received for
/// this car's own items.
///
/// ```swift
/// let added = try store.addFeedItem(item)            // .isNew false when (author, device, seq) was stored before
/// let page = try store.feed(user: "alice", world: false, limit: 50, before: nil)
/// ```
extension Store {
    /// What storing one item did.
    public struct FeedItemAdded: Sendable, Equatable {
        /// False when (author, device, seq) was stored before (or dropped by the caps), or the
        /// same person's record of the place is newer already.
        public var isNew: Bool
        /// Items dropped to make room (counted in ``feedItemsDropped`` too).
        public var dropped: Int
        /// The seq of the item this record replaced (the same person's earlier record of the
        /// same place), when it replaced one.
        public var replaced: Int?

        public init(isNew: Bool, dropped: Int = 0, replaced: Int? = nil) {
            self.isNew = isNew
            self.dropped = dropped
            self.replaced = replaced
        }
    }

    /// Feed items dropped by the caps since the store was opened.
    public var feedItemsDropped: Int { feedDrops.total }

    /// Stores `item` unless it is there already (or was dropped by the caps), received `received`.
    /// Dropping what the caps (`keep` in all, `perDevice` for one friend's device) leave no
    /// room for happens in the same transaction. `owner`: the user whose record one of this
    /// car's own items is (listed to that user and the administrator only, see ``feed``).
    ///
    /// A record is one item per place and person: a later record of a place the same person
    /// (a friend's device; here, the same user) recorded before replaces that item in place —
    /// its rating, note, time and seq become the new record's, its likes stay — so seven taps
    /// on the stars are one item saying the last rating. An earlier one arriving late (a
    /// redelivery) changes nothing.
    @discardableResult
    public func addFeedItem(_ item: FeedItem, owner: String? = nil, received: Date = Date(), keep: Int = FriendLimits.feedItems,
                            perDevice: Int = FriendLimits.feedItemsPerDevice) throws -> FeedItemAdded {
        let owner = item.author == FriendID.selfAuthor ? owner : nil
        let added = try write { db -> FeedItemAdded in
            let floor = try Int.fetchOne(db, sql: "SELECT seq FROM feed_floor WHERE author = ? AND device = ?",
                                         arguments: [item.author, item.device])
            if let floor, item.seq <= floor { return FeedItemAdded(isNew: false) }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM feed_item WHERE author = ? AND device = ? AND seq = ?",
                                 arguments: [item.author, item.device, item.seq]) == true {
                return FeedItemAdded(isNew: false)
            }
            if item.kind == "record", let replaced = try Self.replaceRecord(db, with: item, owner: owner, received: received) {
                return replaced
            }
            try db.execute(sql: """
                INSERT INTO feed_item (author, device, seq, time, kind, place_id, place_name, place_kind, rating, note, club, received_at, owner)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (author, device, seq) DO NOTHING
                """, arguments: [item.author, item.device, item.seq, StoredDate.string(item.time), item.kind, item.place.id, item.place.name,
                                 item.place.kind, item.rating, item.note, item.club ?? false, StoredDate.string(received), owner])
            guard db.changesCount > 0 else { return FeedItemAdded(isNew: false) }
            return FeedItemAdded(isNew: true, dropped: try Self.dropOverCaps(db, after: item, keep: keep, perDevice: perDevice))
        }
        feedDrops.add(added.dropped)
        return added
    }

    /// The same person's earlier record of `item`'s place, replaced by `item` when it is newer
    /// (a higher seq from the same device); nil when there is none. Duplicates kept before a
    /// record replaced its predecessor go too: the person's newest record is the one item.
    static func replaceRecord(_ db: Database, with item: FeedItem, owner: String?, received: Date) throws -> FeedItemAdded? {
        let earlier = try Row.fetchAll(db, sql: """
            SELECT id, seq FROM feed_item
            WHERE author = ? AND device = ? AND place_id = ? AND kind = 'record' AND owner IS ?
            ORDER BY seq DESC
            """, arguments: [item.author, item.device, item.place.id, owner])
        guard let latest = earlier.first else { return nil }
        let latestSeq: Int = latest["seq"]
        guard item.seq > latestSeq else { return FeedItemAdded(isNew: false) }
        try db.execute(sql: """
            UPDATE feed_item SET seq = ?, time = ?, place_name = ?, place_kind = ?, rating = ?, note = ?, club = ?, received_at = ?
            WHERE id = ?
            """, arguments: [item.seq, StoredDate.string(item.time), item.place.name, item.place.kind, item.rating, item.note,
                             item.club ?? false, StoredDate.string(received), latest["id"] as Int64])
        let own = item.author == FriendID.selfAuthor
        // The likes a friend gave this car's find follow it to its new seq (its one id now).
        if own {
            try db.execute(sql: "UPDATE feed_like_received SET item_seq = ? WHERE item_seq = ?", arguments: [item.seq, latestSeq])
        }
        for old in earlier.dropFirst() {
            if own { try db.execute(sql: "DELETE FROM feed_like_received WHERE item_seq = ?", arguments: [old["seq"] as Int]) }
            try db.execute(sql: "DELETE FROM feed_item WHERE id = ?", arguments: [old["id"] as Int64])
        }
        return FeedItemAdded(isNew: true, replaced: latestSeq)
    }

    /// Drops what the caps leave no room for after `item` came; returns how many. First the
    /// item's own device, past its share (a friend's: this car's own finds have none); then,
    /// while the feed holds more than `keep`, the oldest received of the friend's device that
    /// holds the most (this car's own oldest only when no friend's item is left).
    static func dropOverCaps(_ db: Database, after item: FeedItem, keep: Int, perDevice: Int) throws -> Int {
        var dropped = 0
        if item.author != FriendID.selfAuthor {
            let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_item WHERE author = ? AND device = ?",
                                        arguments: [item.author, item.device]) ?? 0
            if held > perDevice {
                dropped += try dropOldest(db, author: item.author, device: item.device, count: held - perDevice)
            }
        }
        var total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_item") ?? 0
        while total > keep {
            let largest = try Row.fetchOne(db, sql: """
                SELECT author, device, COUNT(*) AS n FROM feed_item WHERE author != ?
                GROUP BY author, device ORDER BY n DESC, MIN(received_at) LIMIT 1
                """, arguments: [FriendID.selfAuthor])
            let author: String = largest?["author"] ?? FriendID.selfAuthor
            let device: String = largest?["device"] ?? FriendID.selfAuthor
            let n = try dropOldest(db, author: author, device: device, count: 1)
            guard n > 0 else { break }
            dropped += n
            total -= n
        }
        return dropped
    }

    /// Drops `device`'s `count` oldest received items, remembering the highest seq dropped
    /// (a replay of a dropped item is not new again), and the likes received for own items
    /// dropped. Returns how many went.
    static func dropOldest(_ db: Database, author: String, device: String, count: Int) throws -> Int {
        let old = try Row.fetchAll(db, sql: """
            SELECT id, seq FROM feed_item WHERE author = ? AND device = ? ORDER BY received_at, id LIMIT ?
            """, arguments: [author, device, count])
        for r in old {
            let seq: Int = r["seq"]
            try db.execute(sql: """
                INSERT INTO feed_floor (author, device, seq) VALUES (?, ?, ?)
                ON CONFLICT (author, device) DO UPDATE SET seq = MAX(seq, excluded.seq)
                """, arguments: [author, device, seq])
            if author == FriendID.selfAuthor {
                try db.execute(sql: "DELETE FROM feed_like_received WHERE item_seq = ?", arguments: [seq])
            }
            try db.execute(sql: "DELETE FROM feed_item WHERE id = ?", arguments: [r["id"] as Int64])
        }
        return old.count
    }

    /// Where the device this car is on the broker (`USER/DEVICE`, told by its bridge) is kept.
    static let ownDeviceKey = "friends.own_device"

    /// The device this car is on the broker, as its bridge last told (nil: never told).
    public func ownDevice() throws -> FriendID? {
        try syncValue(Self.ownDeviceKey).flatMap { FriendID(parsing: $0) }
    }

    public func setOwnDevice(_ who: FriendID) throws {
        try setSyncValue(Self.ownDeviceKey, who.description)
    }

    /// This car's own item `seq` (author `self`), if it is kept.
    public func ownFeedItem(seq: Int) throws -> FeedItem? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM feed_item WHERE author = ? AND device = ? AND seq = ?",
                             arguments: [FriendID.selfAuthor, FriendID.selfAuthor, seq]).map(Self.item)
        }
    }

    /// Items newest first: with `world` all of them, else those whose author device `user`
    /// follows plus this car's own; only items older than `before` when given. This car's own
    /// are kept under author `self` and listed under `own` (the name its bridge publishes them
    /// under, so a find has one id in its author's feed and its followers') when known.
    ///
    /// Of this car's own, a record (a rating or note) is its owner's: listed to that user, and
    /// to every user's only when `seesEveryone` (the daemon's administrator); one with no
    /// owner (kept before owners were) to the administrator alone. Its arrivals are the car's,
    /// listed to everyone, as their ARRIVED went to every watcher.
    public func feed(user: String, world: Bool, limit: Int, before: Date?, own: FriendID? = nil,
                     seesEveryone: Bool = false) throws -> [FeedEntry] {
        try database.read { db in
            var conditions: [String] = []
            var args: StatementArguments = []
            if !seesEveryone {
                conditions.append("(author != ? OR kind = 'arrived' OR owner = ?)")
                args += [FriendID.selfAuthor, user]
            }
            if !world {
                conditions.append("(author = ? OR EXISTS (SELECT 1 FROM follow f WHERE f.user = ? AND f.who = feed_item.author || '/' || feed_item.device))")
                args += [FriendID.selfAuthor, user]
            }
            if let before {
                conditions.append("time < ?")
                args += [StoredDate.string(before)]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            args += [limit]
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM feed_item \(whereClause) ORDER BY time DESC, id DESC LIMIT ?",
                                        arguments: args)
            return try rows.map { r in try Self.entry(db, r, user: user, own: own) }
        }
    }

    private static func item(_ r: Row) -> FeedItem {
        FeedItem(author: r["author"], device: r["device"], seq: r["seq"], time: r.storedDate("time"), kind: r["kind"],
                 place: .init(id: r["place_id"], name: r["place_name"], kind: r["place_kind"]),
                 rating: r["rating"], note: r["note"], club: (r["club"] as Bool) ? true : nil)
    }

    private static func entry(_ db: Database, _ r: Row, user: String, own: FriendID?) throws -> FeedEntry {
        let item = Self.item(r)
        let rowID: Int64 = r["id"]
        var likers = try String.fetchAll(db, sql: "SELECT user FROM feed_like WHERE item_id = ? ORDER BY time, user",
                                         arguments: [rowID])
        var count = likers.count
        if item.author == FriendID.selfAuthor {
            let received = try String.fetchAll(db, sql: """
                SELECT liker FROM feed_like_received WHERE item_seq = ? AND liked ORDER BY time, liker
                """, arguments: [item.seq])
            count += received.count
            likers += received
        }
        let mine = try Bool.fetchOne(db, sql: "SELECT 1 FROM feed_like WHERE item_id = ? AND user = ?",
                                     arguments: [rowID, user]) == true
        var shown = item
        let isOwn = item.author == FriendID.selfAuthor
        if isOwn, let own {
            shown.author = own.user
            shown.device = own.device
        }
        return FeedEntry(item: shown, id: "\(shown.author)/\(shown.device)/\(item.seq)", likes: count,
                         likers: Array(likers.prefix(FriendLimits.likersListed)), likedByMe: mine, own: isOwn)
    }

    /// What a like or unlike did.
    public enum LikeOutcome: Sendable, Equatable {
        case noSuchItem
        /// Done; `changed` false when it was so already (liking twice is one like).
        case done(changed: Bool)
    }

    /// `user` likes (or stops liking) the stored item `id`.
    public func like(_ id: FeedItemID, user: String, _ like: Bool, at time: Date = Date()) throws -> LikeOutcome {
        try write { db in
            guard let rowID = try Int64.fetchOne(db, sql: "SELECT id FROM feed_item WHERE author = ? AND device = ? AND seq = ?",
                                                 arguments: [id.author, id.device, id.seq]) else { return .noSuchItem }
            if like {
                try db.execute(sql: "INSERT INTO feed_like (user, item_id, time) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               arguments: [user, rowID, StoredDate.string(time)])
            } else {
                try db.execute(sql: "DELETE FROM feed_like WHERE user = ? AND item_id = ?", arguments: [user, rowID])
            }
            return .done(changed: db.changesCount > 0)
        }
    }

    /// A like (or unlike) of this car's own item `seq` from `liker`, counted once per liker:
    /// the latest `time` wins, an older or equal one changes nothing. At most
    /// ``FriendLimits/likesPerItem`` likers per item.
    public func likeReceived(itemSeq seq: Int, liker: String, _ like: Bool, at time: Date) throws -> LikeOutcome {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM feed_item WHERE author = ? AND device = ? AND seq = ?",
                                    arguments: [FriendID.selfAuthor, FriendID.selfAuthor, seq]) == true else { return .noSuchItem }
            let known = try Row.fetchOne(db, sql: "SELECT liked, time FROM feed_like_received WHERE item_seq = ? AND liker = ?",
                                         arguments: [seq, liker])
            if let known {
                guard time > known.storedDate("time") else { return .done(changed: false) }
                try db.execute(sql: "UPDATE feed_like_received SET liked = ?, time = ? WHERE item_seq = ? AND liker = ?",
                               arguments: [like, StoredDate.string(time), seq, liker])
                return .done(changed: (known["liked"] as Bool) != like)
            }
            let likers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_like_received WHERE item_seq = ?", arguments: [seq]) ?? 0
            if likers >= FriendLimits.likesPerItem {
                throw StoreError.quotaReached(quota: "likes_per_item", limit: FriendLimits.likesPerItem, user: liker)
            }
            try db.execute(sql: "INSERT INTO feed_like_received (item_seq, liker, liked, time) VALUES (?, ?, ?, ?)",
                           arguments: [seq, liker, like, StoredDate.string(time)])
            return .done(changed: like)
        }
    }
}
