#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// FRIEND_LIKE on the broker: a device's like (or its withdrawal) of one of a friend's finds, on
/// the liker's own `…/likes/AUTHOR/DEVICE`. Its body is the `like_received` request the author's
/// bridge hands its daemon, unchanged, so the request's fields and checks are the one
/// definition of it; this type owns only what the broker adds, its class.
///
/// ```json
/// {"class":"FRIEND_LIKE","cmd":"like_received","item_seq":1234,"like":true,"liker":"bob/car","time":"2026-11-25T10:00:00.000Z"}
/// ```
/// Bridges before protocol 1.11 named it `LIKE`, the class of the socket's own LIKE event
/// (`LikeEvent`: a Unix user here liked an item), a different shape. The rename goes in two
/// phases because bridges in the field read the class: every bridge now reads both names, and
/// writes the new one to an author whose `…/location` says it reads it (``LikeDialect``), the
/// old one otherwise.
public struct BrokerLike: WireMessage, Equatable {
    static let maximumPayloadBytes = 1024

    var request: LikeReceivedRequest
    /// `FRIEND_LIKE`, or `LIKE` for an author not known to read the new name.
    public let wireClass: String

    public init(_ request: LikeReceivedRequest, for reader: LikeDialect = .friendLike) {
        self.request = request
        wireClass = reader == .friendLike ? LikeReceivedRequest.brokerClass : LikeReceivedRequest.legacyBrokerClass
    }

    /// The request's own decoding (literal keys, as a request line is read; `class` allowed,
    /// either name). What arrives is read as the request itself (``fromBroker``); a value
    /// decoded here is one to write again, under the current class.
    public init(from decoder: any Decoder) throws {
        request = try LikeReceivedRequest(from: decoder)
        wireClass = LikeReceivedRequest.brokerClass
    }

    public func encode(to encoder: any Encoder) throws { try request.encode(to: encoder) }

    /// The message's text (one JSON line, no newline).
    public var payload: String { WireCoding.line(self) }

    /// Reads a like `liker`'s topic brought, its fields checked as the daemon checks the request
    /// (the liker a valid `USER/DEVICE`, the item's number whole), and more: the liker the
    /// topic's (the topic is what the broker's ACL vouches for: a like naming anyone else is
    /// refused, never passed on in that name), the item a real one (from 1) and the time within
    /// the last week. Nil for an empty payload.
    public static func fromBroker(_ payload: [UInt8], liker: FriendID, now: Date = Date()) throws(FriendMessageError) -> LikeReceivedRequest? {
        guard let text = try BrokerPayload.text(payload, cap: maximumPayloadBytes) else { return nil }
        let cls = WireCoding.className(of: text) ?? "none"
        guard LikeReceivedRequest.brokerClasses.contains(cls) else {
            throw FriendMessageError("class \"\(cls.prefix(20))\", expected \(LikeReceivedRequest.brokerClass) (or \(LikeReceivedRequest.legacyBrokerClass))")
        }
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
