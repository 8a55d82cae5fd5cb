#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// FEED: a new feed item was stored (the bridge's `feed_item`, or this car's own ARRIVED or
/// RECORD). Wall-clock `time`: it is not on the fix timeline.
///
/// ```json
/// {"class":"FEED","seq":901,"time":"…","item":{"author":"jane","device":"ute","seq":1234,…}}
/// ```
public struct FeedEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "FEED"
    public var seq: Int?
    public var time: Date
    public var item: FeedItem

    public init(seq: Int? = nil, time: Date, item: FeedItem) {
        self.seq = seq
        self.time = time
        self.item = item
    }
}

/// LIKE: a user here liked (or unliked) a feed item; the bridge publishes it to the author.
public struct LikeEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "LIKE"
    public var seq: Int?
    public var time: Date
    /// `USER/DEVICE/SEQ`.
    public var item: String
    public var like: Bool
    /// The Unix user who liked it.
    public var user: String

    public init(seq: Int? = nil, time: Date, item: String, like: Bool, user: String) {
        self.seq = seq
        self.time = time
        self.item = item
        self.like = like
        self.user = user
    }
}

/// LIKE_RECEIVED (since 1.9): a friend's device liked (or stopped liking) one of this car's own
/// finds — the bridge's `like_received` that changed something. Wall-clock `time`.
///
/// ```json
/// {"class":"LIKE_RECEIVED","seq":930,"time":"…","item":"ann/ute/11","like":true,"liker":"bob/car","place":{"id":"…","kind":"bigthing","name":"Big Banana"}}
/// ```
/// `item` is the find's one id, `USER/DEVICE/SEQ` as its followers know it (`self/self/SEQ`
/// until a bridge has told the daemon its name); `place` is the find's place.
public struct LikeReceivedEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "LIKE_RECEIVED"
    public var seq: Int?
    public var time: Date
    public var item: String
    /// `USER/DEVICE` of the device that liked it.
    public var liker: String
    public var like: Bool
    public var place: FeedItem.Place?

    public init(seq: Int? = nil, time: Date, item: String, liker: String, like: Bool, place: FeedItem.Place? = nil) {
        self.seq = seq
        self.time = time
        self.item = item
        self.liker = liker
        self.like = like
        self.place = place
    }
}

/// RECORD: a user rated or noted a place (store `rate`, `note`); the bridge may share it.
public struct RecordEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "RECORD"
    public var seq: Int?
    public var time: Date
    public var user: String
    public var place: FeedItem.Place
    /// 0–5 stars; absent when the place has no rating from this user.
    public var rating: Int?
    public var note: String?
    public var noteWords: Int?

    public init(seq: Int? = nil, time: Date, user: String, place: FeedItem.Place, rating: Int? = nil, note: String? = nil) {
        self.seq = seq
        self.time = time
        self.user = user
        self.place = place
        self.rating = rating
        self.note = note
        self.noteWords = note.map(FeedItem.words)
    }
}

/// FOLLOWING_CHANGED: someone followed or unfollowed; the bridge resubscribes.
public struct FollowingChangedEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "FOLLOWING_CHANGED"
    public var seq: Int?
    public var time: Date
    public var version: Int

    public init(seq: Int? = nil, time: Date, version: Int) {
        self.seq = seq
        self.time = time
        self.version = version
    }
}
