#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reply to the friends' writes (`follow`, `unfollow`, `friend_fix`, `feed_item`,
/// `like`, `unlike`, `like_received`): done.
///
/// ```json
/// {"class":"RESULT","cmd":"feed_item","new":true,"ok":true}
/// ```
public struct OKReply: FixedClassMessage, Equatable {
    public static let wireClass = "RESULT"
    var ok: Bool
    /// The command answered.
    var cmd: String
    /// `feed_item`: whether the item was new (false: already stored, nothing emitted).
    /// `follow`/`unfollow`/`like`/`unlike`/`like_received`: whether anything changed.
    public var new: Bool?

    public init(cmd: String, new: Bool? = nil) {
        self.ok = true
        self.cmd = cmd
        self.new = new
    }
}

/// The reply to `following`.
public struct FollowingReply: FixedClassMessage, Equatable {
    public static let wireClass = "FOLLOWING"

    public struct Follow: Codable, Sendable, Equatable {
        public var who: String
        public var since: Date
        public init(who: String, since: Date) {
            self.who = who
            self.since = since
        }
    }

    public var following: [Follow]
    /// With `all`: bumped on every follow and unfollow by anyone (the bridge polls it).
    public var version: Int?

    public init(following: [Follow], version: Int? = nil) {
        self.following = following
        self.version = version
    }
}

/// The reply to `feed`: newest first.
public struct FeedReply: FixedClassMessage, Equatable {
    public static let wireClass = "FEED"
    public var items: [FeedEntry]
    public init(items: [FeedEntry]) { self.items = items }
}
