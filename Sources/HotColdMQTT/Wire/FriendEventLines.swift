import Foundation
import HotColdCore
import HotColdProtocol

/// The daemon's friends events the bridge acts on (protocol 1.6, the friends contract), read at
/// the socket: RECORD (a rating or note to share), LIKE (a like to send to the author) and
/// FOLLOWING_CHANGED (subscribe again).
enum FriendEventLine {
    struct Record: Decodable {
        var seq: Int?
        var time: String
        var place: TargetRef
        var rating: Int?
        var note: String?
        var note_words: Int?
    }

    struct Like: Decodable {
        var seq: Int?
        var time: String
        var item: String
        var like: Bool
    }

    static func decode<T: Decodable>(_ type: T.Type, _ line: String) throws(WireError) -> T {
        guard line.utf8.count <= SequencedEvent.maximumLineBytes else { throw WireError("a line of \(line.utf8.count) bytes") }
        do { return try JSONDecoder().decode(T.self, from: Data(line.utf8)) } catch {
            throw WireError("\(WireCoding.className(of: line) ?? "?") unreadable: \(error)")
        }
    }

    /// RECORD → the feed item it is shared as (nil without a sequence number: nothing to name it by).
    static func feedItem(recordLine line: String, author: String, device: String) throws(WireError) -> FeedMessage? {
        let r = try decode(Record.self, line)
        guard let seq = r.seq.flatMap({ UInt64(exactly: $0) }), seq > 0 else { return nil }
        guard let t = ISO8601.parse(r.time) else { throw WireError("RECORD time \(r.time.prefix(40))") }
        let note = r.note.map { String($0.prefix(FeedMessage.maximumNoteLength)) }
        return FeedMessage(author: author, device: device, seq: seq, time: t, kind: .record, place: r.place,
                        rating: r.rating.flatMap { (1...5).contains($0) ? $0 : nil }, note: note,
                        noteWords: note.map { _ in r.note_words ?? 0 })
    }

    /// LIKE → the author's device, the item's number, and the like to send.
    static func like(line: String, liker: FriendDevice) throws(WireError) -> (author: FriendDevice, like: LikeMessage) {
        let l = try decode(Like.self, line)
        let parts = l.item.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let author = FriendDevice(user: parts[0], device: parts[1]),
              let n = UInt64(parts[2]), n > 0 else { throw WireError("LIKE item \"\(l.item.prefix(80))\" is not USER/DEVICE/SEQ") }
        guard let t = ISO8601.parse(l.time) else { throw WireError("LIKE time \(l.time.prefix(40))") }
        return (author, LikeMessage(itemSeq: n, liker: liker, like: l.like, time: t))
    }
}
