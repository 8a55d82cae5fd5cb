import Foundation
import HotColdCore
import HotColdProtocol

/// A like (or its withdrawal) of one feed item, sent to the item's author on
/// `hotcold/AUTHOR/DEVICE/likes` (QoS 1):
/// `{"class":"LIKE","item_seq":1234,"liker":"bob/car","like":true,"time":ISO}`.
///
/// The author's daemon counts it once per liker, the latest `time` winning, so repeats and
/// reordering on the network change nothing.
public struct LikeMessage: Sendable, Equatable {
    public var itemSeq: UInt64
    public var liker: FriendDevice
    public var like: Bool
    public var time: Date

    public init(itemSeq: UInt64, liker: FriendDevice, like: Bool, time: Date) {
        self.itemSeq = itemSeq
        self.liker = liker
        self.like = like
        self.time = time
    }

    public static let wireClass = "LIKE"
    public static let maximumPayloadBytes = 1024

    public var payload: String {
        var o = JSONLine(class: Self.wireClass)
        o.addRaw("item_seq", json: String(itemSeq))
        o.add("liker", liker.description)
        o.add("like", like)
        o.add("time", time: time)
        return o.text
    }

    /// Reads a like from this device's own `…/likes`; nil for an empty payload.
    public static func decode(_ payload: [UInt8], now: Date = Date()) throws(FriendMessageError) -> LikeMessage? {
        struct Wire: Decodable {
            var `class`: String
            var item_seq: Double
            var liker: String
            var like: Bool
            var time: String
        }
        guard let w = try FriendFix.decode(Wire.self, payload, cap: maximumPayloadBytes) else { return nil }
        guard w.class == wireClass else { throw FriendMessageError("class \"\(w.class.prefix(20))\", expected LIKE") }
        guard w.item_seq >= 1, w.item_seq <= 9_007_199_254_740_992, w.item_seq.rounded() == w.item_seq else {
            throw FriendMessageError("item_seq \(w.item_seq) is not a whole number from 1 to 2^53")
        }
        guard let liker = FriendDevice(w.liker) else { throw FriendMessageError("liker \"\(w.liker.prefix(64))\" is not USER/DEVICE") }
        guard let t = ISO8601.parse(w.time) else { throw FriendMessageError("time \"\(w.time.prefix(40))\" is not ISO 8601") }
        let age = now.timeIntervalSince(t)
        guard age <= FeedMessage.oldest, age >= -FriendFix.newest else { throw FriendMessageError("time \(w.time) outside the last week") }
        return LikeMessage(itemSeq: UInt64(w.item_seq), liker: liker, like: w.like, time: t)
    }
}
