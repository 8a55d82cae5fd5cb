import Foundation
import GRDB
import HotColdProtocol

/// Who each Unix user follows (`hotcold follow USER/DEVICE`), and the follow version the
/// bridge polls to know when to resubscribe.
///
/// ```swift
/// let changed = try store.follow(FriendID(parsing: "jane/ute")!, user: "alice")   // (true, version 1)
/// try store.following(user: "alice")        // [("jane/ute", since)]
/// ```
extension Store {
    /// A follow or unfollow: whether it changed anything, and the version after it (bumped
    /// only on a change).
    public struct FollowChange: Sendable, Equatable {
        public var changed: Bool
        public var version: Int
        public init(changed: Bool, version: Int) {
            self.changed = changed
            self.version = version
        }
    }

    /// Follows `who` for `user`; at most ``FriendLimits/followsPerUser`` follows per user
    /// (``StoreError/quotaReached(quota:limit:user:)`` beyond, nothing written).
    public func follow(_ who: FriendID, user: String, at time: Date = Date()) throws -> FollowChange {
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM follow WHERE user = ? AND who = ?", arguments: [user, who.description]) == true {
                return FollowChange(changed: false, version: try Self.followVersion(db))
            }
            try Store.requireRoom(db, quota: "follows_per_user", limit: FriendLimits.followsPerUser, user: user,
                                  sql: "SELECT COUNT(*) FROM follow WHERE user = ?")
            try db.execute(sql: "INSERT INTO follow (user, who, since) VALUES (?, ?, ?)", arguments: [user, who.description, StoredDate.string(time)])
            return FollowChange(changed: true, version: try Self.bumpFollowVersion(db))
        }
    }

    public func unfollow(_ who: FriendID, user: String) throws -> FollowChange {
        try write { db in
            try db.execute(sql: "DELETE FROM follow WHERE user = ? AND who = ?", arguments: [user, who.description])
            guard db.changesCount > 0 else { return FollowChange(changed: false, version: try Self.followVersion(db)) }
            return FollowChange(changed: true, version: try Self.bumpFollowVersion(db))
        }
    }

    /// One user's follows (by who), or with `user` nil the union over every user, each with
    /// its earliest `since`; and the version.
    public func following(user: String?) throws -> (follows: [(who: String, since: Date)], version: Int) {
        try database.read { db in
            let rows = user.map { u in
                (sql: "SELECT who, since FROM follow WHERE user = ? ORDER BY who", arguments: [u] as StatementArguments)
            } ?? (sql: "SELECT who, MIN(since) AS since FROM follow GROUP BY who ORDER BY who", arguments: StatementArguments())
            let follows = try Row.fetchAll(db, sql: rows.sql, arguments: rows.arguments).map { r in
                (who: r["who"] as String, since: r.storedDate("since"))
            }
            return (follows, try Self.followVersion(db))
        }
    }

    /// Whether anyone here follows `who`.
    public func isFollowed(_ who: FriendID) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM follow WHERE who = ? LIMIT 1", arguments: [who.description]) == true
        }
    }

    /// Every device followed by anyone (the radar's admission list, read at start and kept
    /// by the daemon afterwards).
    public func followedDevices() throws -> Set<String> {
        try database.read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT who FROM follow")) }
    }

    static func followVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT version FROM follow_version WHERE id = 1") ?? 0
    }

    static func bumpFollowVersion(_ db: Database) throws -> Int {
        try db.execute(sql: "UPDATE follow_version SET version = version + 1 WHERE id = 1")
        return try followVersion(db)
    }
}

extension Store {
    /// A place's own row (name and kind for a RECORD), or nil.
    public func placeRecord(id: String) throws -> Place? {
        try database.read { db in try Place.fetchOne(db, key: id) }
    }
}
