#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One find in the feed: a device's arrival at a place, or its record (rating, note) of one.
/// Stored once by (author, device, seq); the same object rides in `feed_item`, the `FEED`
/// event and the `feed` reply.
///
/// ```json
/// {"author":"jane","device":"ute","seq":1234,"time":"2026-11-25T10:00:00.000Z","kind":"arrived",
///  "place":{"id":"halans:d0577fb8cf","name":"Big Banana","kind":"bigthing"},"rating":4,"note":"Best milkshake on the coast"}
/// ```
public struct FeedItem: Codable, Sendable, Equatable {
    public static let kinds = ["arrived", "record"]
    /// Stars a shared rating may carry: the same 0–5 as `store` `rate` (0 is a rating, not its absence).
    public static let ratings = 0...5

    public struct Place: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var kind: String
        public init(id: String, name: String, kind: String) {
            self.id = id
            self.name = name
            self.kind = kind
        }
    }

    /// The author's user, or `self` for this car's own items.
    public var author: String
    public var device: String
    public var seq: Int
    public var time: Date
    /// `arrived` or `record`.
    public var kind: String
    public var place: Place
    /// 0–5 stars, when shared (0 is a rating, the lowest one).
    public var rating: Int?
    /// At most 500 characters, when shared.
    public var note: String?
    /// Came under the club prefix rather than from a followed device.
    public var club: Bool?
    /// The note's word count as the author's daemon counted it (the original app's habit), on
    /// the broker's `FEED_ITEM` only: a `feed_item` request leaves it out and the daemon counts
    /// its own (`FeedEntry/noteWords`).
    public var noteWords: Int?

    public init(author: String, device: String, seq: Int, time: Date, kind: String, place: Place,
                rating: Int? = nil, note: String? = nil, club: Bool? = nil, noteWords: Int? = nil) {
        self.author = author
        self.device = device
        self.seq = seq
        self.time = time
        self.kind = kind
        self.place = place
        self.rating = rating
        self.note = note
        self.club = club
        self.noteWords = noteWords
    }

    public var id: FeedItemID? { FeedItemID(author: author, device: device, seq: seq) }

    /// Words in the note, as the original app showed beside it.
    static func words(_ note: String) -> Int {
        note.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).count
    }

    /// Reads and checks an item from a request (`feed_item`).
    init(_ f: Fields) throws(ProtocolError) {
        let author = try f.requiredString("author", max: FriendID.partLength, what: "the author's user")
        let device = try f.requiredString("device", max: FriendID.partLength, what: "the author's device")
        guard FriendID.isPart(author) else {
            throw ProtocolError(.badField, command: f.command, field: "author", "only A–Z a–z 0–9 . _ - (1–64), got \"\(author)\"")
        }
        guard author != FriendID.selfAuthor else {
            throw ProtocolError(.badField, command: f.command, field: "author", "\"self\" is reserved for this car's own items")
        }
        guard FriendID.isPart(device) else {
            throw ProtocolError(.badField, command: f.command, field: "device", "only A–Z a–z 0–9 . _ - (1–64), got \"\(device)\"")
        }
        self.author = author
        self.device = device
        seq = try f.required(try f.integer("seq", in: 0...Limits.maxInteger), "seq", "the author daemon's event seq")
        time = try f.required(try f.time("time"), "time", "an ISO-8601 time")
        kind = try f.required(try f.choice("kind", Self.kinds), "kind", Self.kinds.joined(separator: " or "))
        place = try f.required(try f.object("place", allowed: ["id", "name", "kind"]) { (p: Fields) throws(ProtocolError) -> Place in
            Place(id: try p.requiredString("id", max: Limits.idLength, what: "the place's id"),
                  name: try p.requiredString("name", max: Limits.nameLength, what: "the place's name"),
                  kind: try p.requiredString("kind", max: 16, what: "the place's kind, such as bigthing"))
        }, "place", "an object with id, name and kind")
        rating = try f.integer("rating", in: Self.ratings)
        note = try f.string("note", max: FriendLimits.noteLength, allowEmpty: true)
        club = try f.bool("club")
    }
}

/// A feed item as it travels between bridges on `hotcold/USER/DEVICE/feed` (QoS 1, not
/// retained): `{"class":"FEED_ITEM",` then the item's fields, written and read by `WireCoding`.
/// `seq` is the author daemon's number of the event it came from, so (author, device, seq)
/// names the item everywhere and a follower's daemon stores it once however often the network
/// repeats it.
extension FeedItem: FixedClassMessage {
    public static let wireClass = "FEED_ITEM"
}

/// A feed item as `feed` lists it: the item's own fields, flat, then its id and its likes.
public struct FeedEntry: Codable, Sendable, Equatable {
    public var item: FeedItem
    /// `USER/DEVICE/SEQ`: the same for a find in its author's feed and in its followers'. This
    /// car's own carry the name its bridge publishes under (`self/self/SEQ` until a bridge has
    /// told the daemon, see `report`'s `device`).
    public var id: String
    public var likes: Int
    /// Who liked it (at most ``FriendLimits/likersListed``; `likes` counts them all).
    public var likers: [String]
    public var likedByMe: Bool
    /// The note's word count (the original app's habit), when there is a note.
    var noteWords: Int?
    /// True for this car's own finds (since 1.9; left out otherwise).
    public var own: Bool?

    public init(item: FeedItem, id: String, likes: Int, likers: [String], likedByMe: Bool, own: Bool = false) {
        self.item = item
        self.id = id
        self.likes = likes
        self.likers = likers
        self.likedByMe = likedByMe
        self.noteWords = item.note.map(FeedItem.words)
        self.own = own ? true : nil
    }

    enum ExtraKeys: String, CodingKey { case id, likes, likers, likedByMe, noteWords, own }

    public init(from decoder: any Decoder) throws {
        item = try FeedItem(from: decoder)
        // The entry's own count is the one it carries (see `encode`).
        item.noteWords = nil
        let c = try decoder.container(keyedBy: ExtraKeys.self)
        id = try c.decode(String.self, forKey: .id)
        likes = try c.decode(Int.self, forKey: .likes)
        likers = try c.decode([String].self, forKey: .likers)
        likedByMe = try c.decode(Bool.self, forKey: .likedByMe)
        noteWords = try c.decodeIfPresent(Int.self, forKey: .noteWords)
        own = try c.decodeIfPresent(Bool.self, forKey: .own)
    }

    public func encode(to encoder: any Encoder) throws {
        // One `note_words` per object: the entry's (this daemon's count), never the item's too.
        var plain = item
        plain.noteWords = nil
        try plain.encode(to: encoder)
        var c = encoder.container(keyedBy: ExtraKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(likes, forKey: .likes)
        try c.encode(likers, forKey: .likers)
        try c.encode(likedByMe, forKey: .likedByMe)
        try c.encodeIfPresent(noteWords, forKey: .noteWords)
        try c.encodeIfPresent(own, forKey: .own)
    }
}
