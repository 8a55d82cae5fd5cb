#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// A feed item on the broker is the protocol's `FeedItem` as a `FEED_ITEM` line
/// (`WireCoding.line(item)`); this reads one from a followed device's `…/feed`, checked.
extension FeedItem {
    /// A note is at most 500 characters (4 bytes each at worst), the rest is small.
    static let maximumPayloadBytes = 8192
    /// Items may wait in a broker's session for a while; a week back is plenty.
    static let oldest: TimeInterval = 7 * 24 * 3600

    /// Reads a FEED_ITEM from `who`'s feed topic, checked: the author and device must be the
    /// topic's (nobody writes into another's feed), the bounds those of the daemon's
    /// `feed_item` (so it never refuses what the bridge passed), the time within the last
    /// week. `club` is the bridge's to say (from the topic), never the sender's. Nil for an
    /// empty payload.
    public static func fromBroker(_ payload: [UInt8], who: FriendID, now: Date = Date()) throws(FriendMessageError) -> FeedItem? {
        guard let text = try BrokerPayload.text(payload, cap: maximumPayloadBytes) else { return nil }
        let cls = WireCoding.className(of: text) ?? "none"
        guard cls == wireClass else { throw FriendMessageError("class \"\(cls.prefix(20))\", expected \(wireClass)") }
        guard var w = try BrokerPayload.decode(FeedItem.self, payload, cap: maximumPayloadBytes, decoder: WireCoding.decoder()) else {
            return nil
        }
        guard w.author == who.user, w.device == who.device else {
            throw FriendMessageError("an item by \(w.author.prefix(64))/\(w.device.prefix(64)) on \(who)'s feed")
        }
        guard (1...Limits.maxInteger).contains(w.seq) else { throw FriendMessageError("seq \(w.seq) is not a whole number from 1 to 2^53") }
        guard kinds.contains(w.kind) else { throw FriendMessageError("kind \"\(w.kind.prefix(20))\", expected arrived or record") }
        let age = now.timeIntervalSince(w.time)
        guard age <= oldest, age >= -FriendLimits.fixMaxAhead else {
            throw FriendMessageError("time \(ISO8601.format(w.time)) outside the last week")
        }
        let p = w.place
        guard !p.id.isEmpty, Limits.fits(p.id, max: Limits.idLength), !p.name.isEmpty, Limits.fits(p.name, max: Limits.nameLength),
              !p.kind.isEmpty, p.kind.count <= 16 else {
            throw FriendMessageError("place id, name or kind empty or too long")
        }
        if let r = w.rating, !FeedItem.ratings.contains(r) { throw FriendMessageError("rating \(r) outside 0–5") }
        if let n = w.note, n.count > FriendLimits.noteLength {
            throw FriendMessageError("a note of \(n.count) characters (over \(FriendLimits.noteLength))")
        }
        if let n = w.noteWords, !(0...FriendLimits.noteLength).contains(n) { throw FriendMessageError("note_words \(n) out of range") }
        w.club = nil
        return w
    }
}
