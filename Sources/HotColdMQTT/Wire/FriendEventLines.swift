import Foundation
import HotColdCore
import HotColdProtocol

/// The daemon's friends events the bridge turns into messages (protocol 1.6), read through the
/// protocol's types: RECORD (a rating or note to share as a feed item) and LIKE (a like to send
/// to the item's author).
enum FriendEventLine {
    /// RECORD → its sequence number and the feed item it is shared as.
    static func record(_ line: String, author: String, device: String) throws(WireError) -> (seq: UInt64?, item: FeedMessage?) {
        let r: RecordEvent
        do { r = try WireCoding.decode(RecordEvent.self, from: line) } catch { throw WireError("RECORD: \(error.message)") }
        guard let seq = r.seq.flatMap({ UInt64(exactly: $0) }), seq > 0 else { return (nil, nil) }
        let note = r.note.map { String($0.prefix(FeedMessage.maximumNoteLength)) }
        let item = FeedMessage(author: author, device: device, seq: seq, time: r.time, kind: .record,
                               place: TargetRef(id: r.place.id, name: r.place.name, kind: TargetKind(r.place.kind)),
                               rating: r.rating.flatMap { (1...5).contains($0) ? $0 : nil }, note: note,
                               noteWords: note.map { _ in r.noteWords ?? 0 })
        return (seq, item)
    }

    /// LIKE → its sequence number, the author's device and the like to send (nil: an item of
    /// this car's own, or one the bridge cannot address).
    static func like(_ line: String, liker: FriendDevice?) throws(WireError) -> (seq: UInt64?, to: FriendDevice?, like: LikeMessage?) {
        let l: LikeEvent
        do { l = try WireCoding.decode(LikeEvent.self, from: line) } catch { throw WireError("LIKE: \(error.message)") }
        let seq = l.seq.flatMap { UInt64(exactly: $0) }
        let parts = l.item.split(separator: "/", omittingEmptySubsequences: false)
        guard let liker, parts.count == 3, let author = FriendDevice(user: parts[0], device: parts[1]), author != liker,
              let n = UInt64(parts[2]), n > 0 else { return (seq, nil, nil) }
        return (seq, author, LikeMessage(itemSeq: n, liker: liker, like: l.like, time: l.time))
    }
}
