import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// What comes from the broker for friends is checked at the edge: size, JSON shape, ranges,
/// and who it is from (the topic, never the payload).
@Suite(.offCooperativePool) struct FriendMessageTests {
    let jane = FriendID(parsing: "jane/ute")!
    let now = ISO8601.parse("2026-11-25T10:00:00.000Z")!

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func friendIDsAreTwoSafeLevels() {
        #expect(FriendID(parsing: "jane/ute")?.description == "jane/ute")
        #expect(FriendID(parsing: "j.a_n-e/Ute2") != nil)
        for bad in ["jane", "jane/ute/x", "/ute", "jane/", "jane/#", "jane/+", "ja ne/ute", "jäne/ute",
                    String(repeating: "a", count: 65) + "/ute", "jane/u\u{0}te"] {
            #expect(FriendID(parsing: bad) == nil, "\(bad)")
        }
        #expect(FriendID(parsing: String(repeating: "a", count: 64) + "/ute") != nil)
    }

    @Test func hotcoldLocationAsTheBridgePublishesIt() throws {
        let f = try #require(try FriendFixRequest.hotcold(bytes(#"{"time":"2026-11-25T09:59:58.000Z","latitude":-30.1,"longitude":153.1,"gps_accuracy":8,"speed_mps":3.25}"#),
                                                   who: jane, now: now))
        #expect(f.who == jane)
        #expect(f.lat == -30.1 && f.lon == 153.1)
        #expect(f.accuracyM == 8 && f.speedMps == 3.25 && f.name == nil && !f.club)
        #expect(f.time == ISO8601.parse("2026-11-25T09:59:58.000Z"))
        let named = try FriendFixRequest.hotcold(bytes(#"{"time":"2026-11-25T09:59:58Z","latitude":0,"longitude":0,"gps_accuracy":0,"name":" Jane "}"#), who: jane, now: now)
        #expect(named?.name == "Jane")
        // A retained message being cleared is nothing, not an error.
        #expect(try FriendFixRequest.hotcold([], who: jane, now: now) == nil)
        // What this bridge publishes on its own `…/location` is what a follower's reads: one type.
        let fix = StatusReply.LastFix(time: now.addingTimeInterval(-2.5), lat: -30.2999999, lon: 153.1, mode: 3, accuracyM: 8.6, speedMps: 12.25)
        let mine = status("fix", lastFix: fix, targets: [])
        let published = try #require(HotColdLayout.location(mine, topics: Topics(prefix: "hotcold", user: "jane", device: "ute")))
        let read = try #require(try FriendFixRequest.hotcold(bytes(published.payload), who: jane, now: now))
        #expect(read == FriendFixRequest(who: jane, time: fix.time, lat: -30.2999999, lon: 153.1, accuracyM: 9, speedMps: 12.25))
        // It says which like class this bridge reads; a location without a version (an
        // earlier bridge's) reads only the old one.
        #expect(published.payload.contains(#""proto_major":\#(ProtocolVersion.major),"proto_minor":\#(ProtocolVersion.minor)"#))
        #expect(try FriendFixRequest.hotcoldLocation(bytes(published.payload), who: jane, now: now)?.reads == .friendLike)
        #expect(try FriendFixRequest.hotcoldLocation(bytes(#"{"time":"2026-11-25T09:59:58Z","latitude":0,"longitude":0}"#), who: jane, now: now)?.reads == .legacy)
    }

    @Test func likeDialectByVersion() {
        #expect(LikeDialect(major: nil, minor: nil) == .legacy)
        #expect(LikeDialect(major: 1, minor: nil) == .legacy)
        #expect(LikeDialect(major: 1, minor: 10) == .legacy)
        #expect(LikeDialect(major: 1, minor: 11) == .friendLike)
        #expect(LikeDialect(major: 1, minor: 40) == .friendLike)
        #expect(LikeDialect(major: 2, minor: 0) == .friendLike)
        #expect(LikeDialect(major: 0, minor: 99) == .legacy)
        #expect(LikeDialect(major: ProtocolVersion.major, minor: ProtocolVersion.minor) == .friendLike)
    }

    @Test func ownTracksLocationInItsUnits() throws {
        let tst = Int(now.timeIntervalSince1970) - 5
        let f = try #require(try FriendFixRequest.ownTracks(bytes(#"{"_type":"location","lat":-30.2,"lon":153.2,"tst":\#(tst),"acc":12,"vel":36,"tid":"JU","batt":80}"#),
                                                     who: jane, now: now))
        #expect(f.lat == -30.2 && f.lon == 153.2)
        #expect(f.accuracyM == 12)
        #expect(abs((f.speedMps ?? 0) - 10) < 1e-9)    // 36 km/h
        #expect(f.time == Date(timeIntervalSince1970: Double(tst)))
        // vel -1 (the apps' "unknown") is no speed.
        #expect(try FriendFixRequest.ownTracks(bytes(#"{"_type":"location","lat":1,"lon":2,"tst":\#(tst),"vel":-1}"#), who: jane, now: now)?.speedMps == nil)
        // Other message types are not positions.
        for other in [#"{"_type":"transition","event":"enter","lat":1,"lon":2,"tst":\#(tst)}"#, #"{"_type":"lwt","tst":\#(tst)}"#,
                      #"{"_type":"waypoint","lat":1,"lon":2,"tst":\#(tst)}"#] {
            #expect(try FriendFixRequest.ownTracks(bytes(other), who: jane, now: now) == nil)
        }
    }

    @Test func badLocationsAreRefusedNamingWhy() {
        let t = "2026-11-25T09:59:58.000Z"
        let cases: [(String, String)] = [
            (#"{"time":"\#(t)","latitude":91,"longitude":0}"#, "latitude"),
            (#"{"time":"\#(t)","latitude":0,"longitude":-180.5}"#, "longitude"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0,"gps_accuracy":-1}"#, "accuracy"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0,"gps_accuracy":10001}"#, "accuracy"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0,"speed_mps":151}"#, "speed"),
            (#"{"time":"1975-01-01T00:00:00.000Z","latitude":0,"longitude":0}"#, "outside 1980–2137"),
            (#"{"time":"2140-01-01T00:00:00.000Z","latitude":0,"longitude":0}"#, "outside 1980–2137"),
            (#"{"time":"yesterday","latitude":0,"longitude":0}"#, "field time: not an ISO-8601 time"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0,"gps_accuracy":"8"}"#, "field gps_accuracy has the wrong type"),
            (#"{"time":"\#(t)","latitude":"0","longitude":0}"#, "wrong type"),
            (#"{"time":"\#(t)","longitude":0}"#, "latitude missing"),
            (#"[1,2]"#, "not a JSON object"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0"#, "not JSON"),
            (#"{"time":"\#(t)","latitude":0,"longitude":0,"name":"\#(String(repeating: "x", count: 65))"}"#, "name"),
            ("{\"time\":\"\(t)\",\"latitude\":0,\"longitude\":0,\"pad\":\"\(String(repeating: "x", count: 5000))\"}", "over 4096"),
        ]
        for (payload, why) in cases {
            let error = #expect(throws: FriendMessageError.self) { _ = try FriendFixRequest.hotcold(bytes(payload), who: jane, now: now) }
            #expect(error?.description.contains(why) == true, "\(payload.prefix(80)): \(error?.description ?? "no error")")
        }
        #expect(throws: FriendMessageError.self) {
            _ = try FriendFixRequest.ownTracks(bytes(#"{"_type":"location","lat":1,"lon":2,"tst":1e300}"#), who: jane, now: now)
        }
    }

    /// A friend's clock is not judged against this box's (issue 25): a box without a
    /// real-time clock, or the bundled demo drive's 2019 times, still shows on the radar;
    /// the broker's message expiry and the daemon's arrival clock judge ages instead.
    @Test func aPositionFromAClockFarFromOursIsStillAPosition() throws {
        for t in ["2019-03-02T07:25:04.000Z", "2031-06-01T00:00:00.000Z"] {
            let fix = try FriendFixRequest.hotcold(bytes(#"{"time":"\#(t)","latitude":-30.27,"longitude":153.13}"#), who: jane, now: now)
            #expect(fix?.lat == -30.27, "\(t)")
        }
    }

    @Test func feedItemsRoundTripAndBelongToTheirTopic() throws {
        let item = FeedItem(author: "jane", device: "ute", seq: 1234, time: now, kind: "record",
                            place: .init(id: "big-banana", name: "Big Banana", kind: "bigthing"),
                            rating: 4, note: "Best \"milkshake\" on the coast", noteWords: 5)
        let payload = WireCoding.line(item)
        #expect(payload.hasPrefix(#"{"class":"FEED_ITEM","author":"jane","device":"ute","kind":"record","#))
        #expect(try FeedItem.fromBroker(bytes(payload), who: jane, now: now) == item)
        #expect(item.id?.description == "jane/ute/1234")
        // Nobody writes into another's feed.
        let error = #expect(throws: FriendMessageError.self) {
            _ = try FeedItem.fromBroker(bytes(payload), who: FriendID(parsing: "bob/car")!, now: now)
        }
        #expect(error?.description == "an item by jane/ute on bob/car's feed")
        // The sender cannot say it came through the club: the bridge says so, from the topic.
        var club = item
        club.club = true
        #expect(try FeedItem.fromBroker(bytes(WireCoding.line(club)), who: jane, now: now)?.club == nil)
        let refused: [(FeedItem, String)] = [
            ({ var b = item; b.rating = 6; return b }(), "rating 6"),
            ({ var b = item; b.note = String(repeating: "n", count: 501); return b }(), "over 500"),
            ({ var b = item; b.noteWords = -1; return b }(), "note_words"),
            ({ var b = item; b.seq = 0; return b }(), "seq 0"),
            ({ var b = item; b.kind = "visited"; return b }(), "kind"),
            ({ var b = item; b.place.kind = String(repeating: "k", count: 17); return b }(), "place"),
            ({ var b = item; b.time = now.addingTimeInterval(-8 * 86_400); return b }(), "last week"),
        ]
        for (bad, why) in refused {
            let e = #expect(throws: FriendMessageError.self) { _ = try FeedItem.fromBroker(bytes(WireCoding.line(bad)), who: jane, now: now) }
            #expect(e?.description.contains(why) == true, "\(why): \(e?.description ?? "no error")")
        }
        let fractional = payload.replacingOccurrences(of: #""seq":1234"#, with: #""seq":12.5"#)
        #expect(throws: FriendMessageError.self) { _ = try FeedItem.fromBroker(bytes(fractional), who: jane, now: now) }
        let wrongClass = payload.replacingOccurrences(of: "FEED_ITEM", with: "FEED")
        #expect(throws: FriendMessageError.self) { _ = try FeedItem.fromBroker(bytes(wrongClass), who: jane, now: now) }
        // Written by an earlier bridge (its own key order, no club): read the same.
        let earlier = #"{"class":"FEED_ITEM","author":"jane","device":"ute","seq":1234,"time":"2026-11-25T10:00:00.000Z","kind":"record","place":{"id":"big-banana","name":"Big Banana","kind":"bigthing"},"rating":4,"note":"Best \"milkshake\" on the coast","note_words":5}"#
        #expect(try FeedItem.fromBroker(bytes(earlier), who: jane, now: now) == item)
    }

    /// What the bridge hands the daemon is what arrived, field for field: the broker's
    /// FEED_ITEM and LIKE are the protocol's types, so no copy can drift from them.
    @Test func whatArrivesIsTheRequestTheDaemonGets() throws {
        let item = FeedItem(author: "jane", device: "ute", seq: 7, time: now, kind: "arrived",
                            place: .init(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing"), rating: 5, note: "yes")
        let read = try #require(try FeedItem.fromBroker(bytes(WireCoding.line(item)), who: jane, now: now))
        let request = Request.feedItem(FeedItemRequest(item: read))
        #expect(try Request.decode(line: request.line).get() == .feedItem(FeedItemRequest(item: item)))
        let like = LikeReceivedRequest(itemSeq: 7, liker: FriendID(parsing: "bob/car")!, like: false, time: now)
        let heard = try #require(try BrokerLike.fromBroker(bytes(BrokerLike(like).payload), liker: like.liker, now: now))
        #expect(try Request.decode(line: Request.likeReceived(heard).line).get() == .likeReceived(like))
    }

    @Test func likesRoundTripWithACheckedLiker() throws {
        let bob = FriendID(parsing: "bob/car")!
        let like = LikeReceivedRequest(itemSeq: 1234, liker: bob, like: true, time: now)
        let payload = BrokerLike(like).payload
        #expect(payload == #"{"class":"FRIEND_LIKE","cmd":"like_received","item_seq":1234,"like":true,"liker":"bob/car","time":"2026-11-25T10:00:00.000Z"}"#)
        #expect(try BrokerLike.fromBroker(bytes(payload), liker: bob, now: now) == like)
        // To an author not known to read FRIEND_LIKE: the old class, which it does read.
        let legacy = BrokerLike(like, for: .legacy).payload
        #expect(legacy == #"{"class":"LIKE","cmd":"like_received","item_seq":1234,"like":true,"liker":"bob/car","time":"2026-11-25T10:00:00.000Z"}"#)
        #expect(try BrokerLike.fromBroker(bytes(legacy), liker: bob, now: now) == like)
        #expect((try? Request.decode(line: legacy).get()) == .likeReceived(like))
        // As an earlier bridge wrote it (no cmd): read the same.
        let earlier = #"{"class":"LIKE","item_seq":1234,"liker":"bob/car","like":true,"time":"2026-11-25T10:00:00.000Z"}"#
        #expect(try BrokerLike.fromBroker(bytes(earlier), liker: bob, now: now) == like)
        // The socket's LIKE event is not a broker like, whatever its class says.
        let socketLike = WireCoding.line(LikeEvent(seq: 905, time: now, item: "jane/ute/1234", like: true, user: "alice"))
        #expect(throws: FriendMessageError.self) { _ = try BrokerLike.fromBroker(bytes(socketLike), liker: bob, now: now) }
        let forged = payload.replacingOccurrences(of: "bob/car", with: "bob/#")
        let e = #expect(throws: FriendMessageError.self) { _ = try BrokerLike.fromBroker(bytes(forged), liker: bob, now: now) }
        #expect(e?.description.contains(#"got "bob/#""#) == true, "\(e?.description ?? "")")
        // Bob's topic carrying a like in Carol's name: the topic is the sender, the payload no say.
        let asCarol = payload.replacingOccurrences(of: "bob/car", with: "carol/van")
        let c = #expect(throws: FriendMessageError.self) { _ = try BrokerLike.fromBroker(bytes(asCarol), liker: bob, now: now) }
        #expect(c?.description == "a like by carol/van on bob/car's topic", "\(c?.description ?? "")")
        #expect(throws: FriendMessageError.self) {
            _ = try BrokerLike.fromBroker(bytes(payload.replacingOccurrences(of: "1234", with: "0")), liker: bob, now: now)
        }
        #expect(throws: FriendMessageError.self) {
            _ = try BrokerLike.fromBroker(bytes(payload.replacingOccurrences(of: "2026-11-25", with: "2026-11-01")), liker: bob, now: now)
        }
        #expect(throws: FriendMessageError.self) {
            _ = try BrokerLike.fromBroker(bytes(String(repeating: " ", count: 1025)), liker: bob, now: now)
        }
        // The daemon takes the LIKE as its request, but no other class in it.
        #expect((try? Request.decode(line: payload).get()) == .likeReceived(like))
        let otherClass = payload.replacingOccurrences(of: #""class":"FRIEND_LIKE""#, with: #""class":"FEED""#)
        #expect(Request.decode(line: otherClass).failure?.field == "class")
    }

    @Test func topicsOfFollowedDevicesInBothLayoutsAndNeverOurOwn() {
        let me = FriendID(parsing: "bob/car")!
        let t = FriendTopics(own: me, ownTopics: Topics(prefix: "hotcold", user: "bob", device: "car"), club: "hotcold/club-x")
        #expect(t.subscriptions(following: [jane, me]) == [
            "hotcold/+/+/likes/bob/car", "hotcold/club-x/+/+/feed", "hotcold/club-x/+/+/likes/bob/car",
            "hotcold/club-x/+/+/location", "hotcold/jane/ute/feed", "hotcold/jane/ute/location", "owntracks/jane/ute"])
        #expect(t.classify("hotcold/jane/ute/location", following: [jane]) == .init(who: jane, kind: .location, club: false))
        #expect(t.classify("hotcold/jane/ute/feed") == .init(who: jane, kind: .feed, club: false))
        #expect(t.classify("owntracks/jane/ute") == .init(who: jane, kind: .ownTracks, club: false))
        // A like names its liker by the topic it came on, the liker's own.
        #expect(t.classify("hotcold/jane/ute/likes/bob/car") == .init(who: jane, kind: .likes, club: false))
        #expect(t.classify("hotcold/club-x/ann/van/likes/bob/car") == .init(who: FriendID(parsing: "ann/van")!, kind: .likes, club: false))
        // Through the club: club unless also followed.
        let ann = FriendID(parsing: "ann/van")!
        #expect(t.classify("hotcold/club-x/ann/van/location") == .init(who: ann, kind: .location, club: true))
        #expect(t.classify("hotcold/club-x/jane/ute/feed", following: [jane]) == .init(who: jane, kind: .feed, club: false))
        // Our own messages coming back through a wildcard, other sub-topics, bad levels: nothing.
        for topic in ["hotcold/club-x/bob/car/location", "hotcold/bob/car/location", "owntracks/bob/car",
                      "hotcold/jane/ute/state", "hotcold/jane/ute/event", "owntracks/jane/ute/event",
                      "hotcold/ja ne/ute/location", "hotcold/jane/ute/likes", "other/jane/ute/location",
                      // The old place for likes (the author's own topic, where anyone could name
                      // any liker), a like for someone else, our own like coming back.
                      "hotcold/bob/car/likes", "hotcold/jane/ute/likes/ann/van", "hotcold/bob/car/likes/bob/car"] {
            #expect(t.classify(topic) == nil, "\(topic)")
        }
    }
}

/// The inbox between libmosquitto's thread and the forwarder: bounded, positions coalesced,
/// feed items and likes never dropped once accepted.
@Suite(.offCooperativePool) struct FriendInboxTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func fix(_ who: String, _ second: Int) -> FriendFixRequest {
        FriendFixRequest(who: FriendID(parsing: who)!, time: t0.addingTimeInterval(Double(second)), lat: 0, lon: 0)
    }

    func item(_ seq: Int) -> FriendInbox.Item {
        .feed(FeedItem(author: "jane", device: "ute", seq: seq, time: t0, kind: "arrived", place: .init(id: "x", name: "X", kind: "point")))
    }

    @Test func aNewerFixReplacesOneNotYetSentAndPositionsGoFirst() {
        let inbox = FriendInbox(capacity: 3, maximumFriends: 2)
        #expect(inbox.put(item(1)))
        #expect(inbox.put(.fix(fix("jane/ute", 1))))
        #expect(inbox.put(.fix(fix("bob/car", 1))))
        #expect(inbox.put(.fix(fix("jane/ute", 2))))
        #expect(inbox.put(.fix(fix("jane/ute", 1))))      // older than the one waiting: nothing new
        #expect(!inbox.put(.fix(fix("ann/van", 1))))      // a third friend at once: refused, counted
        #expect(inbox.counters == .init(superseded: 1, refused: 1))
        #expect(inbox.take(timeout: 0) == .item(.fix(fix("jane/ute", 2))))
        #expect(inbox.take(timeout: 0) == .item(.fix(fix("bob/car", 1))))
        #expect(inbox.take(timeout: 0) == .item(item(1)))
        #expect(inbox.take(timeout: 0) == .timedOut)
    }

    @Test func feedItemsWaitInOrderAndAFullInboxRefusesOnlyNewOnes() {
        let inbox = FriendInbox(capacity: 3)
        for s in 1...3 { #expect(inbox.put(item(s))) }
        #expect(!inbox.put(item(4)))
        #expect(inbox.take(timeout: 0) == .item(item(1)))
        inbox.putBack(item(1))                            // the daemon was busy: first again
        #expect((1...3).map { _ in inbox.take(timeout: 0) } == [.item(item(1)), .item(item(2)), .item(item(3))])
        inbox.poke()
        inbox.poke()
        #expect(inbox.take(timeout: 30) == .poked)
        #expect(inbox.take(timeout: 0.05) == .timedOut)
    }
}

/// Feed items and likes accepted from the broker survive a crash of the bridge: journaled as
/// they come, cut off the file's beginning as they reach the daemon, forgotten once all did.
@Suite(.offCooperativePool) struct InboxJournalTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func item(_ seq: Int) -> FriendInbox.Item {
        .feed(FeedItem(author: "jane", device: "ute", seq: seq, time: t0, kind: "arrived", place: .init(id: "x", name: "X", kind: "point")))
    }

    /// The records a restart would read back (nil: a line that is none).
    func records(_ j: InboxJournal) throws -> [[UInt8]?] {
        var out: [[UInt8]?] = []
        try j.forEachRecord { r, _ in out.append(r?.payload) }
        return out
    }

    @Test func whatIsNotSettledIsThereAfterARestartAndNothingOnceAllIs() throws {
        let dir = try TemporaryDirectory("inbox-journal")
        defer { dir.remove() }
        let journal = InboxJournal(directory: dir.url.path)
        let inbox = FriendInbox(journal: journal)
        inbox.put(item(1), raw: ("hotcold/jane/ute/feed", Array("one\t\n".utf8)))
        inbox.put(item(2), raw: ("hotcold/jane/ute/feed", Array("two".utf8)))
        #expect(inbox.take(timeout: 0) == .item(item(1)))
        inbox.settled()
        // A crash now: the second is still owed to the daemon (the first too: a settled
        // beginning is only cut off once it is large enough, and the daemon keeps each item once).
        #expect(try records(journal) == [Array("one\t\n".utf8), Array("two".utf8)])
        #expect(inbox.take(timeout: 0) == .item(item(2)))
        inbox.settled()
        #expect(try records(journal).isEmpty)
        #expect(inbox.counters.journalFailures == 0)
        // A torn last line (a crash mid-write) is no record.
        try "hotcold/jane/ute/feed\tdHdv\nhotcold/jane/ute/fe".write(toFile: journal.path, atomically: false, encoding: .utf8)
        #expect(try records(journal) == [Array("two".utf8), nil])
    }

    /// A flood while the daemon is slow: the inbox holds its byte budget and refuses the rest,
    /// counted; the journal is cut as the inbox drains and never outgrows 1¼ × the budget; a
    /// restart reads it back record by record, in order, within the budget.
    @Test func aFloodIsBoundedInBytesCompactedAsItDrainsAndReadBackInOrder() throws {
        let dir = try TemporaryDirectory("inbox-budget")
        defer { dir.remove() }
        let journal = InboxJournal(directory: dir.url.path)
        let budget = 256 << 10
        let inbox = FriendInbox(maximumBytes: budget, journal: journal)
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 8000)
        let line = InboxJournal.line(topic: "hotcold/jane/ute/feed", payload: payload).count
        var accepted = 0
        for s in 1...200 where inbox.put(item(s), raw: ("hotcold/jane/ute/feed", payload)) { accepted += 1 }
        #expect(accepted == budget / line)
        #expect(inbox.counters.refused == 200 - accepted)
        #expect(journal.size() == accepted * line)
        // Draining while more arrive: the file stays bounded.
        var largest = 0
        var next = 201
        for _ in 0..<(accepted * 3) {
            guard case .item = inbox.take(timeout: 0) else { break }
            inbox.settled()
            if inbox.put(item(next), raw: ("hotcold/jane/ute/feed", payload)) { next += 1 }
            largest = max(largest, journal.size())
        }
        #expect(largest <= FriendInbox.restoreLimit(maximumBytes: budget) + line, "\(largest) bytes")
        #expect(inbox.counters.compactions > 0)
        // A restart: everything in the file comes back in order — what is waiting, and the
        // settled beginning not yet cut off (the daemon keeps each item once) — nothing dropped.
        let waiting = inbox.waiting
        let inFile = journal.size() / line
        #expect(inFile >= waiting)
        let again = FriendInbox(maximumBytes: budget, journal: journal)
        var read = 0
        let (queued, dropped) = try again.restore { _, _ in
            read += 1
            return item(read)
        }
        #expect(queued == inFile && dropped == 0 && again.waiting == inFile)
        // A smaller budget after the restart: the newest beyond it are dropped and counted,
        // never loaded.
        let small = FriendInbox(maximumBytes: 64 << 10, journal: journal)
        let fits = FriendInbox.restoreLimit(maximumBytes: 64 << 10) / line
        let r = try small.restore { _, _ in item(1) }
        #expect(r.queued == fits && r.dropped == inFile - fits && small.counters.refused == inFile - fits)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
}
