import Foundation
import HotColdCore
import HotColdProtocol

/// One item of a device's feed as it travels on `hotcold/USER/DEVICE/feed` (QoS 1, not
/// retained): an arrival at a place, or a record (rating, note) the user chose to share.
///
/// `{"class":"FEED_ITEM","author":"jane","device":"ute","seq":1234,"time":ISO,"kind":"arrived",
/// "place":{"id":…,"name":…,"kind":…},"rating":4,"note":"…","note_words":3}`
///
/// `seq` is the author daemon's number of the event it came from, so (author, device, seq)
/// names the item everywhere: a follower's daemon stores it once however often the network
/// repeats it. It never carries a coordinate, a distance or a bearing (`share = "visits"`).
public struct FeedMessage: Sendable, Equatable {
    public enum Kind: String, Sendable, Decodable {
        case arrived
        case record
    }

    public var author: String
    public var device: String
    public var seq: UInt64
    public var time: Date
    public var kind: Kind
    public var place: TargetRef
    public var rating: Int?
    public var note: String?
    public var noteWords: Int?

    public init(author: String, device: String, seq: UInt64, time: Date, kind: Kind, place: TargetRef,
                rating: Int? = nil, note: String? = nil, noteWords: Int? = nil) {
        self.author = author
        self.device = device
        self.seq = seq
        self.time = time
        self.kind = kind
        self.place = place
        self.rating = rating
        self.note = note
        self.noteWords = noteWords
    }

    public static let wireClass = "FEED_ITEM"
    /// A note is at most 500 characters (4 bytes each at worst), the rest is small.
    public static let maximumPayloadBytes = 8192
    public static let maximumNoteLength = 500
    /// Items may wait in a broker's session for a while; a week back is plenty.
    public static let oldest: TimeInterval = 7 * 24 * 3600

    /// `USER/DEVICE/SEQ`, the item's id in the daemon's feed.
    public var id: String { "\(author)/\(device)/\(seq)" }

    public var payload: String {
        var o = JSONLine(class: Self.wireClass)
        o.add("author", author)
        o.add("device", device)
        o.addRaw("seq", json: String(seq))
        o.add("time", time: time)
        o.add("kind", kind.rawValue)
        o.addRaw("place", json: place.json)
        if let rating { o.add("rating", rating) }
        if let note { o.add("note", note) }
        if let noteWords { o.add("note_words", noteWords) }
        return o.text
    }

    /// Reads a FEED_ITEM from `who`'s feed topic, checked: the author and device must be the
    /// topic's (nobody writes into another's feed), the bounds those of the daemon's
    /// `feed_item`. Nil for an empty payload.
    public static func decode(_ payload: [UInt8], who: FriendDevice, now: Date = Date()) throws(FriendMessageError) -> FeedMessage? {
        struct Place: Decodable { var id: String; var name: String; var kind: String }
        struct Wire: Decodable {
            var `class`: String
            var author: String
            var device: String
            var seq: Double
            var time: String
            var kind: String
            var place: Place
            var rating: Int?
            var note: String?
            var note_words: Int?
        }
        guard let w = try FriendFix.decode(Wire.self, payload, cap: maximumPayloadBytes) else { return nil }
        guard w.class == wireClass else { throw FriendMessageError("class \"\(w.class.prefix(20))\", expected FEED_ITEM") }
        guard w.author == who.user, w.device == who.device else {
            throw FriendMessageError("an item by \(w.author.prefix(64))/\(w.device.prefix(64)) on \(who)'s feed")
        }
        guard w.seq >= 1, w.seq <= 9_007_199_254_740_992, w.seq.rounded() == w.seq else {
            throw FriendMessageError("seq \(w.seq) is not a whole number from 1 to 2^53")
        }
        guard let kind = Kind(rawValue: w.kind) else { throw FriendMessageError("kind \"\(w.kind.prefix(20))\", expected arrived or record") }
        guard let t = ISO8601.parse(w.time) else { throw FriendMessageError("time \"\(w.time.prefix(40))\" is not ISO 8601") }
        let age = now.timeIntervalSince(t)
        guard age <= oldest, age >= -FriendFix.newest else { throw FriendMessageError("time \(w.time) outside the last week") }
        guard !w.place.id.isEmpty, w.place.id.count <= 100, w.place.name.count <= 200, !w.place.kind.isEmpty, w.place.kind.count <= 32 else {
            throw FriendMessageError("place id, name or kind empty or too long")
        }
        if let r = w.rating, !(1...5).contains(r) { throw FriendMessageError("rating \(r) outside 1–5") }
        if let n = w.note, n.count > maximumNoteLength { throw FriendMessageError("a note of \(n.count) characters (over \(maximumNoteLength))") }
        if let n = w.note_words, n < 0 || n > maximumNoteLength { throw FriendMessageError("note_words \(n) out of range") }
        return FeedMessage(author: w.author, device: w.device, seq: UInt64(w.seq), time: t, kind: kind,
                        place: TargetRef(id: w.place.id, name: w.place.name, kind: TargetKind(w.place.kind)),
                        rating: w.rating, note: w.note, noteWords: w.note_words)
    }
}
