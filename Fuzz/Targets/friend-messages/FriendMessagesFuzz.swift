// What arrives from the broker on friends' topics (HotColdMQTT): a followed device's position
// in hotcold's layout (`…/location`) and OwnTracks' (`owntracks/U/D`), a feed item
// (`…/feed`, FEED_ITEM) and a like of this car's own item (on the liker's `…/likes/AUTHOR/DEVICE`,
// FRIEND_LIKE or, from bridges before 1.11, LIKE; the liker is the topic's). Anyone who may
// publish to the broker writes these bytes, so every parser gets every input.
//
// Invariants: nothing traps; a refusal says why in a bounded sentence; what the bridge accepts
// the daemon accepts too (its request line decodes, as `friend_fix`, `feed_item` or
// `like_received`), with the topic's sender and values in range; a feed item or like the bridge
// publishes again reads back as the same line (one type, one coder: nothing drifts).
import Foundation
import FuzzSupport
import HotColdCore
import HotColdMQTT
import HotColdProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// The seeds' clock: their times lie just before it.
let now = Date(timeIntervalSince1970: 1_795_600_800)    // 2026-11-25T10:00:00Z
let jane = FriendID(parsing: "jane/ute")!
/// The liker whose topic the likes arrive on (the seeds' liker).
let bob = FriendID(parsing: "bob/car")!

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let payload = Array(bytes)
    position(payload) { () throws(FriendMessageError) in try FriendFixRequest.hotcoldLocation(payload, who: jane, now: now)?.fix }
    position(payload) { () throws(FriendMessageError) in try FriendFixRequest.ownTracks(payload, who: jane, now: now) }
    feed(payload)
    like(payload)
}

func position(_ payload: [UInt8], _ read: () throws(FriendMessageError) -> FriendFixRequest?) {
    let fix: FriendFixRequest?
    do { fix = try read() } catch { return refused(error, payload) }
    // Nothing: an empty payload, or an OwnTracks message that is no position.
    guard let fix else { return }
    fuzzCheck(fix.who == jane, "a fix for \(fix.who) on jane/ute's topic")
    fuzzCheck(Coordinate(latitude: fix.lat, longitude: fix.lon).isValid, "coordinate \(fix.lat),\(fix.lon)")
    // Ages are judged on arrival, not by the friend's clock: only a time a GPS can give passes.
    fuzzCheck(FriendLimits.plausibleTimes.contains(fix.time.timeIntervalSince1970), "a fix at \(fix.time)")
    daemonAccepts(.friendFix(fix), payload)
}

func feed(_ payload: [UInt8]) {
    let item: FeedItem?
    do { item = try FeedItem.fromBroker(payload, who: jane, now: now) } catch { return refused(error, payload) }
    guard let item else { return fuzzCheck(payload.isEmpty, "a feed item read as nothing from a payload with content") }
    fuzzCheck(item.author == jane.user && item.device == jane.device, "an item by \(item.author)/\(item.device) on jane/ute's feed")
    fuzzCheck(item.club == nil, "the sender set club")
    daemonAccepts(.feedItem(FeedItemRequest(item: item)), payload)
    let line = WireCoding.line(item)
    do {
        let again = try FeedItem.fromBroker(Array(line.utf8), who: jane, now: now)
        fuzzCheck(again.map(WireCoding.line) == line, "FEED_ITEM \(line) reads back as \(again.map(WireCoding.line) ?? "nothing")")
    } catch {
        fuzzCheck(false, "the bridge refuses the FEED_ITEM it would publish: \(line): \(error)")
    }
}

func like(_ payload: [UInt8]) {
    let like: LikeReceivedRequest?
    do { like = try BrokerLike.fromBroker(payload, liker: bob, now: now) } catch { return refused(error, payload) }
    guard let like else { return fuzzCheck(payload.isEmpty, "a like read as nothing from a payload with content") }
    fuzzCheck(like.liker == bob, "a like by \(like.liker) on bob/car's topic")
    daemonAccepts(.likeReceived(like), payload)
    // Under either class (the one an author reads), what the bridge would publish reads back.
    for reader in [LikeDialect.friendLike, .legacy] {
        let line = BrokerLike(like, for: reader).payload
        do {
            let again = try BrokerLike.fromBroker(Array(line.utf8), liker: bob, now: now).map { BrokerLike($0, for: reader).payload }
            fuzzCheck(again == line, "\(reader) like \(line) reads back as \(again ?? "nothing")")
        } catch {
            fuzzCheck(false, "the bridge refuses the like it would publish: \(line): \(error)")
        }
    }
}

/// The daemon takes the request the bridge would send it for this payload.
func daemonAccepts(_ request: Request, _ payload: [UInt8]) {
    if case .failure(let e) = Request.decode(line: request.line) {
        fuzzCheck(false, "the bridge passes what the daemon refuses (\(e.message)): \(request.line) from \(String(decoding: payload, as: UTF8.self))")
    }
}

/// A refusal is logged (bounded, counted): it must say why in a sentence, not echo the payload.
func refused(_ error: FriendMessageError, _ payload: [UInt8]) {
    fuzzCheck(!error.description.isEmpty && error.description.utf8.count <= 600,
              "a refusal of \(error.description.utf8.count) bytes: \(error.description.prefix(200))")
}
