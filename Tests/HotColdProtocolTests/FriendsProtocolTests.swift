import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// The friends' wire (protocol 1.6): requests checked at the edge, replies and events held to
/// the schema, a feed entry flat on the wire as the contract shows it.
@Suite(.offCooperativePool) struct FriendsProtocolTests {
    static let when = ISO8601.parse("2026-11-25T10:00:00.000Z")!
    static let banana = FeedItem.Place(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing")
    static let item = FeedItem(author: "jane", device: "ute", seq: 1234, time: when, kind: "arrived", place: banana,
                               rating: 4, note: "Best milkshake on the coast")

    static func refused(_ line: String) -> ProtocolError? {
        if case .failure(let e) = Request.decode(line: line) { return e }
        return nil
    }

    @Test func theContractsExampleLinesDecode() throws {
        let fix = try Request.decode(line: #"{"cmd":"friend_fix","who":"jane/ute","name":"Jane","time":"2026-11-25T10:00:00.000Z","lat":-30.1,"lon":153.1,"accuracy_m":8,"speed_mps":3.2}"#).get()
        guard case .friendFix(let f) = fix else { Issue.record("not a friend_fix: \(fix)"); return }
        #expect(f.who.targetID == "friend:jane/ute" && f.accuracyM == 8 && f.speedMps == 3.2 && !f.club)
        let feedItem = try Request.decode(line: #"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1234,"time":"2026-11-25T10:00:00.000Z","kind":"arrived","place":{"id":"halans:d0577fb8cf","name":"Big Banana","kind":"bigthing"},"rating":4,"note":"Best milkshake on the coast","club":false}}"#).get()
        #expect(feedItem == .feedItem(FeedItemRequest(item: FeedItem(author: "jane", device: "ute", seq: 1234, time: Self.when,
                                                                     kind: "arrived", place: Self.banana, rating: 4,
                                                                     note: "Best milkshake on the coast", club: false))))
        #expect(try Request.decode(line: #"{"cmd":"unfollow","who":"jane/ute"}"#).get().command == .unfollow)
        #expect(try Request.decode(line: #"{"cmd":"unlike","item":"jane/ute/1234"}"#).get().command == .unlike)
        #expect(try Request.decode(line: #"{"cmd":"like_received","item_seq":1234,"liker":"bob/car","like":true,"time":"2026-11-25T10:00:00.000Z"}"#).get().command == .likeReceived)
        #expect(try Request.decode(line: #"{"cmd":"following","all":true}"#).get() == .following(FollowingRequest(all: true)))
        #expect(try Request.decode(line: #"{"cmd":"watch","classes":["FOLLOWING_CHANGED"]}"#).get()
                == .watch(WatchRequest(classes: ["FOLLOWING_CHANGED"])))
    }

    @Test func boundsAreRefusedWithTheFieldNamed() {
        let cases: [(String, ErrorCode, String)] = [
            (#"{"cmd":"follow","who":"jane"}"#, .badField, "who"),
            (#"{"cmd":"follow","who":"jane/ute/x"}"#, .badField, "who"),
            (#"{"cmd":"follow","who":"ja ne/ute"}"#, .badField, "who"),
            (#"{"cmd":"follow","who":"\#(String(repeating: "j", count: 65))/ute"}"#, .badField, "who"),
            (#"{"cmd":"friend_fix","who":"jane/ute","time":"2026-11-25T10:00:00Z","lat":91,"lon":0}"#, .outOfRange, "lat"),
            (#"{"cmd":"friend_fix","who":"jane/ute","time":"2026-11-25T10:00:00Z","lat":0,"lon":0,"accuracy_m":10001}"#, .outOfRange, "accuracy_m"),
            (#"{"cmd":"friend_fix","who":"jane/ute","time":"2026-11-25T10:00:00Z","lat":0,"lon":0,"speed_mps":151}"#, .outOfRange, "speed_mps"),
            (#"{"cmd":"friend_fix","who":"jane/ute","time":"yesterday","lat":0,"lon":0}"#, .badField, "time"),
            (#"{"cmd":"friend_fix","who":"jane/ute","lat":0,"lon":0}"#, .badField, "time"),
            (#"{"cmd":"friend_fix","who":"jane/ute","time":"2026-11-25T10:00:00Z","lat":0,"lon":0,"name":"\#(String(repeating: "n", count: 65))"}"#, .tooLarge, "name"),
            (#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"},"rating":6}}"#, .outOfRange, "rating"),
            (#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"},"note":"\#(String(repeating: "x", count: 501))"}}"#, .tooLarge, "note"),
            (#"{"cmd":"feed_item","item":{"author":"self","device":"self","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"}}}"#, .badField, "author"),
            (#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"visited","place":{"id":"a","name":"A","kind":"bigthing"}}}"#, .badField, "kind"),
            (#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived"}}"#, .badField, "place"),
            (#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"},"lat":1}}"#, .badField, "lat"),
            (#"{"cmd":"feed","limit":201}"#, .outOfRange, "limit"),
            (#"{"cmd":"like","item":"jane/ute"}"#, .badField, "item"),
            (#"{"cmd":"like","item":"jane/ute/-1"}"#, .badField, "item"),
            (#"{"cmd":"like_received","item_seq":1,"liker":"bob","like":true,"time":"2026-11-25T10:00:00Z"}"#, .badField, "liker"),
            (#"{"cmd":"near","kinds":["friends"]}"#, .badField, "kinds"),
        ]
        for (line, code, field) in cases {
            let e = Self.refused(line)
            #expect(e?.code == code, "\(line): \(String(describing: e))")
            #expect(e?.field == field, "\(line): \(String(describing: e))")
        }
    }

    @Test func friendsRequestsAreWrites() {
        for c in [Command.follow, .unfollow, .friendFix, .feedItem, .like, .unlike, .likeReceived] { #expect(c.writes, "\(c)") }
        for c in [Command.following, .feed] { #expect(!c.writes, "\(c)") }
    }

    static let entry = FeedEntry(item: item, id: "jane/ute/1234", likes: 2, likers: ["alice", "bob/car"], likedByMe: true)

    static let replies: [String] = [
        WireCoding.line(OKReply(cmd: "follow", new: true)),
        WireCoding.line(OKReply(cmd: "friend_fix")),
        WireCoding.line(FollowingReply(following: [.init(who: "jane/ute", since: when)])),
        WireCoding.line(FollowingReply(following: [], version: 7)),
        WireCoding.line(FeedReply(items: [entry])),
        WireCoding.line(FeedReply(items: [])),
        WireCoding.line(StatusReply(time: when, uptimeS: 1, gps: .init(link: "connected", state: "fix"),
                                    tracking: .init(mode: "hunt", candidates: 0, tracked: 0), targets: [],
                                    counters: .init(fixes: 0, fixesAccepted: 0, fixesUntimed: 0, outliers: 0, outOfOrder: 0, events: 0, visitErrors: 0),
                                    latencyUs: .init(samples: 0, p50: 0, p99: 0, max: 0),
                                    friends: [.init(who: "jane/ute", name: "Jane", distanceM: 1520.44, bearingDeg: 312.5, tier: 3,
                                                    tierName: "cool", trend: "colder", arrived: false, ageS: 3.2, stale: false),
                                              .init(who: "bob/car", name: "bob · car", distanceM: nil, bearingDeg: nil, tier: nil,
                                                    tierName: nil, trend: "unknown", arrived: false, ageS: 400, stale: true)])),
    ]

    static let events: [String] = [
        WireCoding.line(FeedEvent(seq: 901, time: when, item: item)),
        WireCoding.line(LikeEvent(seq: 905, time: when, item: "jane/ute/1234", like: true, user: "alice")),
        WireCoding.line(RecordEvent(seq: 910, time: when, user: "alice", place: banana, rating: 4, note: "Best milkshake on the coast")),
        WireCoding.line(RecordEvent(seq: 911, time: when, user: "alice", place: banana)),
        WireCoding.line(FollowingChangedEvent(seq: 920, time: when, version: 7)),
    ]

    @Test func repliesAndEventsMatchTheSchema() throws {
        #expect(try SchemaTests.invalid(Self.replies, schema: "reply.schema.json") == "")
        #expect(try SchemaTests.invalid(Self.events, schema: "event.schema.json") == "")
        // Not a rubber stamp: a feed entry without its likes, a RECORD with six stars.
        #expect(try SchemaTests.invalid([#"{"class":"FEED","items":[{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00.000Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"}}]}"#],
                                        schema: "reply.schema.json") != "")
        #expect(try SchemaTests.invalid([#"{"class":"RECORD","seq":1,"time":"2026-11-25T10:00:00.000Z","user":"a","place":{"id":"a","name":"A","kind":"bigthing"},"rating":6}"#],
                                        schema: "event.schema.json") != "")
    }

    @Test func aFeedEntryIsFlatOnTheWireAndReadsBack() throws {
        let line = WireCoding.line(FeedReply(items: [Self.entry]))
        #expect(line.contains(#""author":"jane""#) && line.contains(#""liked_by_me":true"#) && line.contains(#""note_words":5"#))
        #expect(!line.contains(#""item":"#))
        #expect(try WireCoding.decode(FeedReply.self, from: line) == FeedReply(items: [Self.entry]))
        let event = WireCoding.line(FeedEvent(seq: 3, time: Self.when, item: Self.item))
        #expect(event.hasPrefix(#"{"class":"FEED","seq":3,"#))
        #expect(try WireCoding.decode(FeedEvent.self, from: event).item == Self.item)
    }

    /// Found by scripts/fuzz (proto-request): a time finer than the wire's milliseconds came
    /// back different after a re-encoding.
    @Test func timesAreReadToTheMillisecond() throws {
        let line = #"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":134,"time":"2026-11-25T10:00:00.0002","kind":"arrived","place":{"id":"a","name":"A","kind":"\#u{FFFD}hing"}}}"#
        let first = try Request.decode(line: line).get()
        #expect(try Request.decode(line: first.line).get() == first)
        let fix = try Request.decode(line: #"{"cmd":"friend_fix","who":"a/b","time":"2026-11-25T10:00:00.0005+01:00","lat":0,"lon":0}"#).get()
        #expect(try Request.decode(line: fix.line).get() == fix)
    }

    @Test func identities() {
        #expect(FriendID(parsing: "a.b_c-D9/x")?.description == "a.b_c-D9/x")
        #expect(FriendID(parsing: "/x") == nil && FriendID(parsing: "x/") == nil && FriendID(parsing: "x/y/z") == nil)
        #expect(FriendID(parsing: "jäne/ute") == nil)
        #expect(FeedItemID(parsing: "jane/ute/0")?.seq == 0)
        #expect(FeedItemID(parsing: "jane/ute/99999999999999999") == nil)
        #expect(FeedItem.words("  Best   milkshake\non the coast ") == 5)
    }
}
