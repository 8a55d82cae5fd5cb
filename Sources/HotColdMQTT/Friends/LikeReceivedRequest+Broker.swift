#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// A like on the broker is the protocol's `like_received` request under `"class":"LIKE"`
/// (`WireCoding.line(like)`) on the liker's own `…/likes/AUTHOR/DEVICE`; this reads one, checked.
extension LikeReceivedRequest {
    public static let maximumPayloadBytes = 1024

    /// Reads a like `liker`'s topic brought, its fields checked as the daemon checks the request
    /// (the liker a valid `USER/DEVICE`, the item's number whole), and more: the liker the
    /// topic's (the topic is what the broker's ACL vouches for: a like naming anyone else is
    /// refused, never passed on in that name), the item a real one (from 1) and the time within
    /// the last week. Nil for an empty payload.
    public static func fromBroker(_ payload: [UInt8], liker: FriendID, now: Date = Date()) throws(FriendMessageError) -> LikeReceivedRequest? {
        guard let text = try BrokerPayload.text(payload, cap: maximumPayloadBytes) else { return nil }
        let cls = WireCoding.className(of: text) ?? "none"
        guard cls == wireClass else { throw FriendMessageError("class \"\(cls.prefix(20))\", expected \(wireClass)") }
        // The request's own decoding (literal keys, as a request line is read).
        guard let l = try BrokerPayload.decode(LikeReceivedRequest.self, payload, cap: maximumPayloadBytes) else { return nil }
        guard l.liker == liker else {
            throw FriendMessageError("a like by \(l.liker.description.prefix(130)) on \(liker)'s topic")
        }
        guard l.itemSeq >= 1 else { throw FriendMessageError("item_seq \(l.itemSeq) is not a whole number from 1 to 2^53") }
        let age = now.timeIntervalSince(l.time)
        guard age <= FeedItem.oldest, age >= -FriendLimits.fixMaxAhead else {
            throw FriendMessageError("time \(ISO8601.format(l.time)) outside the last week")
        }
        return l
    }
}
