import Foundation
import GRDB
import HotColdProtocol

/// The feed of finds: items stored once by (author, device, seq), at most
/// ``FriendLimits/feedItems`` kept (oldest by time dropped), the likes this car's users
/// give, and the likes received for this car's own items (author `self`).
///
/// ```swift
/// let isNew = try store.addFeedItem(item)            // false when (author, device, seq) was stored before
/// let page = try store.feed(user: "alice", world: false, limit: 50, before: nil)
/// ```
extension Store {
    /// Stores `item` unless it is there already (or was dropped by the cap). Returns whether
    /// it is new. Dropping the oldest items beyond `keep` happens in the same transaction.
    public func addFeedItem(_ item: FeedItem, received: Date = Date(), keep: Int = FriendLimits.feedItems) throws -> Bool {
        try write { db in
            let floor = try Int.fetchOne(db, sql: "SELECT seq FROM feed_floor WHERE author = ? AND device = ?",
                                         arguments: [item.author, item.device])
            if let floor, item.seq <= floor { return false }
            try db.execute(sql: """
                INSERT INTO feed_item (author, device, seq, time, kind, place_id, place_name, place_kind, rating, note, club, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (author, device, seq) DO NOTHING
                """, arguments: [item.author, item.device, item.seq, item.time, item.kind, item.place.id, item.place.name,
                                 item.place.kind, item.rating, item.note, item.club ?? false, received])
            guard db.changesCount > 0 else { return false }
            try Self.dropOldFeedItems(db, keep: keep)
            return true
        }
    }

    /// Drops the oldest items past `keep`, remembering per author device the highest seq
    /// dropped, and the likes received for own items dropped.
    static func dropOldFeedItems(_ db: Database, keep: Int) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_item") ?? 0
        guard count > keep else { return }
        let old = try Row.fetchAll(db, sql: "SELECT id, author, device, seq FROM feed_item ORDER BY time, id LIMIT ?",
                                   arguments: [count - keep])
        for r in old {
            let author: String = r["author"], device: String = r["device"], seq: Int = r["seq"]
            try db.execute(sql: """
                INSERT INTO feed_floor (author, device, seq) VALUES (?, ?, ?)
                ON CONFLICT (author, device) DO UPDATE SET seq = MAX(seq, excluded.seq)
                """, arguments: [author, device, seq])
            if author == FriendID.selfAuthor {
                try db.execute(sql: "DELETE FROM feed_like_received WHERE item_seq = ?", arguments: [seq])
            }
            try db.execute(sql: "DELETE FROM feed_item WHERE id = ?", arguments: [r["id"] as Int64])
        }
    }

    /// Where the device this car is on the broker (`USER/DEVICE`, told by its bridge) is kept.
    public static let ownDeviceKey = "friends.own_device"

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
    public func feed(user: String, world: Bool, limit: Int, before: Date?, own: FriendID? = nil) throws -> [FeedEntry] {
        try database.read { db in
            var conditions: [String] = []
            var args: StatementArguments = []
            if !world {
                conditions.append("(author = ? OR EXISTS (SELECT 1 FROM follow f WHERE f.user = ? AND f.who = feed_item.author || '/' || feed_item.device))")
                args += [FriendID.selfAuthor, user]
            }
            if let before {
                conditions.append("time < ?")
                args += [before]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            args += [limit]
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM feed_item \(whereClause) ORDER BY time DESC, id DESC LIMIT ?",
                                        arguments: args)
            return try rows.map { r in try Self.entry(db, r, user: user, own: own) }
        }
    }

    private static func item(_ r: Row) -> FeedItem {
        FeedItem(author: r["author"], device: r["device"], seq: r["seq"], time: r["time"], kind: r["kind"],
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
                               arguments: [user, rowID, time])
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
                guard time > (known["time"] as Date) else { return .done(changed: false) }
                try db.execute(sql: "UPDATE feed_like_received SET liked = ?, time = ? WHERE item_seq = ? AND liker = ?",
                               arguments: [like, time, seq, liker])
                return .done(changed: (known["liked"] as Bool) != like)
            }
            let likers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_like_received WHERE item_seq = ?", arguments: [seq]) ?? 0
            if likers >= FriendLimits.likesPerItem {
                throw StoreError.quotaReached(quota: "likes_per_item", limit: FriendLimits.likesPerItem, user: liker)
            }
            try db.execute(sql: "INSERT INTO feed_like_received (item_seq, liker, liked, time) VALUES (?, ?, ?, ?)",
                           arguments: [seq, liker, like, time])
            return .done(changed: like)
        }
    }
}
