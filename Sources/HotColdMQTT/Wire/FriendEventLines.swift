#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// The daemon's friends events the bridge turns into messages (protocol 1.6), read through the
/// protocol's types: RECORD (a rating or note to share as a feed item) and LIKE (a like to send
/// to the item's author).
enum FriendEventLine {
    /// RECORD → its sequence number and the feed item it is shared as: only a record of the
    /// Unix user named `author` (`[topics] user`), the user whose device this is. A bridge
    /// the daemon counts as its administrator (root, or the daemon's own user) is sent every
    /// user's records; another user's rating or note is theirs, never shared in this car's name.
    static func record(_ line: String, author: String, device: String) throws(WireError) -> (seq: UInt64?, item: FeedItem?) {
        let r: RecordEvent
        do { r = try WireCoding.decode(RecordEvent.self, from: line) } catch { throw WireError("RECORD: \(error.message)") }
        guard let n = r.seq, n > 0, let seq = UInt64(exactly: n) else { return (nil, nil) }
        guard r.user == author else { return (seq, nil) }
        let note = r.note.map { String($0.prefix(FriendLimits.noteLength)) }
        let item = FeedItem(author: author, device: device, seq: n, time: r.time, kind: "record", place: r.place,
                            rating: r.rating.flatMap { FeedItem.ratings.contains($0) ? $0 : nil }, note: note,
                            noteWords: note.map { _ in r.noteWords.map { min(max($0, 0), FriendLimits.noteLength) } ?? 0 })
        return (seq, item)
    }

    /// LIKE → its sequence number, the author's device and the like to send (nil: an item of
    /// this car's own, or one the bridge cannot address).
    static func like(_ line: String, liker: FriendID?) throws(WireError) -> (seq: UInt64?, to: FriendID?, like: LikeReceivedRequest?) {
        let l: LikeEvent
        do { l = try WireCoding.decode(LikeEvent.self, from: line) } catch { throw WireError("LIKE: \(error.message)") }
        let seq = l.seq.flatMap { UInt64(exactly: $0) }
        guard let liker, let item = FeedItemID(parsing: l.item), item.seq > 0,
              let author = FriendID(user: item.author, device: item.device), author != liker else { return (seq, nil, nil) }
        return (seq, author, LikeReceivedRequest(itemSeq: item.seq, liker: liker, like: l.like, time: l.time))
    }
}
