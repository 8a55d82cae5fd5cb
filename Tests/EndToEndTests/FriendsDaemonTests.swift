import Foundation
import Glibc
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The friends' commands answered by a real hotcoldd over its socket (protocol 1.6): follows,
/// friend fixes admitted only for followed devices, feed items stored exactly once (across a
/// daemon restart too), likes idempotent, this car's own finds in its feed with the likes the
/// bridge relays, and every bound refused with a clear error.
@Suite(.offCooperativePool) struct FriendsDaemonTests {
    static let banana = "halans:d0577fb8cf"
    static let jane = FriendID(parsing: "jane/ute")!

    static func connect(_ path: String) throws -> LineClient {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            do {
                let c = try LineClient(path: path)
                _ = try c.reply(VersionReply.self)
                return c
            } catch {
                if ContinuousClock.now > deadline { throw error }
                usleep(20_000)
            }
        }
    }

    static func refusal(_ body: () throws -> Void) -> ProtocolError? {
        do { try body() } catch let ClientError.refused(e) { return e } catch { Issue.record("not a refusal: \(error)") }
        return nil
    }

    static func item(seq: Int, note: String? = "Best milkshake on the coast", author: String = "jane", device: String = "ute",
                     time: Date = Date(timeIntervalSinceNow: -60)) -> FeedItem {
        // Whole milliseconds, as the wire carries times.
        let ms = Date(timeIntervalSince1970: (time.timeIntervalSince1970 * 1000).rounded() / 1000)
        return FeedItem(author: author, device: device, seq: seq, time: ms, kind: "arrived",
                 place: .init(id: banana, name: "Big Banana", kind: "bigthing"), rating: 4, note: note)
    }

    /// A watcher of `classes` (its WATCH reply read).
    static func watcher(_ path: String, _ classes: [String]) throws -> LineClient {
        let w = try connect(path)
        _ = try w.call(.watch(WatchRequest(classes: classes)), expecting: WatchReply.self)
        return w
    }

    /// Every line of class `cls` that arrives within `seconds`.
    static func lines(_ c: LineClient, _ cls: String, for seconds: Double) -> [String] {
        var out: [String] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, let l = try? c.readLine(timeout: max(0.05, end.timeIntervalSinceNow)) {
            if WireCoding.className(of: l) == cls { out.append(l) }
        }
        return out
    }

    @Test func followFollowingAndTheVersionTheBridgePolls() throws {
        // A write rate that lets 100 follows through at once (the cap under test is the follows').
        let config = try TemporaryDirectory("hotcold-friends-config")
        defer { config.remove() }
        try "[socket]\nwrite_burst = 1000\nwrites_per_second = 1000\n".write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try Self.connect(d.socketPath)
        let w = try Self.watcher(d.socketPath, ["FOLLOWING_CHANGED"])
        #expect(try c.call(.following(FollowingRequest(all: true)), expecting: FollowingReply.self) == FollowingReply(following: [], version: 0))
        #expect(try c.call(.follow(FollowRequest(who: Self.jane)), expecting: OKReply.self).new == true)
        #expect(try c.call(.follow(FollowRequest(who: Self.jane)), expecting: OKReply.self).new == false, "following twice is one follow")
        let mine = try c.call(.following(FollowingRequest()), expecting: FollowingReply.self)
        #expect(mine.following.map(\.who) == ["jane/ute"] && mine.version == nil)
        #expect(try c.call(.following(FollowingRequest(all: true)), expecting: FollowingReply.self).version == 1)
        let changed = try WireCoding.decode(FollowingChangedEvent.self, from: w.line(ofClass: "FOLLOWING_CHANGED"))
        #expect(changed.version == 1 && changed.seq != nil)
        #expect(try c.call(.follow(FollowRequest(who: Self.jane, follow: false)), expecting: OKReply.self).new == true)
        #expect(try c.call(.follow(FollowRequest(who: Self.jane, follow: false)), expecting: OKReply.self).new == false)
        #expect(try c.call(.following(FollowingRequest(all: true)), expecting: FollowingReply.self) == FollowingReply(following: [], version: 2))
        #expect(try WireCoding.decode(FollowingChangedEvent.self, from: w.line(ofClass: "FOLLOWING_CHANGED")).version == 2)
        #expect(Self.lines(w, "FOLLOWING_CHANGED", for: 0.5).isEmpty, "no event for a change that changed nothing")

        // At most 100 follows per user: the 101st is refused, naming the limit.
        for i in 0..<100 { _ = try c.call(.follow(FollowRequest(who: FriendID(parsing: "u\(i)/car")!)), expecting: OKReply.self) }
        let over = Self.refusal { _ = try c.call(.follow(FollowRequest(who: FriendID(parsing: "u100/car")!)), expecting: OKReply.self) }
        #expect(over?.code == .quota && over?.message.contains("100") == true, "\(String(describing: over))")
        #expect(try c.call(.following(FollowingRequest()), expecting: FollowingReply.self).following.count == 100)
    }

    @Test func friendFixesAreAdmittedForFollowedDevicesOnly() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try Self.connect(d.socketPath)
        let now = Date()
        let fix = FriendFixRequest(who: Self.jane, name: "Jane", time: now, lat: -30.1, lon: 153.1, accuracyM: 8, speedMps: 3.2)
        let unknown = Self.refusal { _ = try c.call(.friendFix(fix), expecting: OKReply.self) }
        #expect(unknown?.code == .notFound && unknown?.field == "who", "\(String(describing: unknown))")
        var club = fix
        club.who = FriendID(parsing: "club.member/phone")!
        club.club = true
        #expect(try c.call(.friendFix(club), expecting: OKReply.self).ok)
        _ = try c.call(.follow(FollowRequest(who: Self.jane)), expecting: OKReply.self)
        #expect(try c.call(.friendFix(fix), expecting: OKReply.self).ok)
        // The friend's clock is not judged against ours (issue 25: a box without a real-time
        // clock, a replayed drive): a day behind or minutes ahead is still a position …
        var old = fix
        old.time = now.addingTimeInterval(-25 * 3600)
        #expect(try c.call(.friendFix(old), expecting: OKReply.self).ok)
        var ahead = fix
        ahead.time = now.addingTimeInterval(120)
        #expect(try c.call(.friendFix(ahead), expecting: OKReply.self).ok)
        // … but a time no GPS can give is refused, naming the field.
        var never = fix
        never.time = Date(timeIntervalSince1970: 100_000_000)
        let refused = Self.refusal { _ = try c.call(.friendFix(never), expecting: OKReply.self) }
        #expect(refused?.code == .outOfRange && refused?.field == "time", "\(String(describing: refused))")
        // The status lists both friends; without a fix of our own, no distance.
        let status = try c.call(.status, expecting: StatusReply.self)
        let friends = status.friends ?? []
        #expect(friends.map(\.who).sorted() == ["club.member/phone", "jane/ute"], "\(friends)")
        #expect(friends.first { $0.who == "jane/ute" }.map { $0.name == "Jane" && $0.distanceM == nil && !$0.stale && $0.trend == "unknown" } == true)
        // Fixes come at a friend's pace, more than the write rate (5/s, 20 at once) allows.
        for i in 1...60 {
            var f = fix
            f.time = now.addingTimeInterval(Double(i) * 0.01)
            #expect(try c.call(.friendFix(f), expecting: OKReply.self).ok)
        }
        // At most 200 friends on the radar: the 201st is refused, naming the cap; those on it are still heard.
        // (One car each of 198 members: one member's own devices have a bound of their own.)
        for i in 0..<198 {
            var f = club
            f.who = FriendID(parsing: "member\(i)/car")!
            _ = try c.call(.friendFix(f), expecting: OKReply.self)
        }
        var extra = club
        extra.who = FriendID(parsing: "one.too.many/car")!
        let full = Self.refusal { _ = try c.call(.friendFix(extra), expecting: OKReply.self) }
        #expect(full?.code == .quota && full?.message.contains("200") == true, "\(String(describing: full))")
        #expect(try c.call(.friendFix(fix), expecting: OKReply.self).ok)
        #expect(try c.call(.status, expecting: StatusReply.self).friends?.count == 200)
        // Unfollowed by everyone here: off the radar at once, and its fixes refused again.
        _ = try c.call(.follow(FollowRequest(who: Self.jane, follow: false)), expecting: OKReply.self)
        #expect(try c.call(.status, expecting: StatusReply.self).friends?.contains { $0.who == "jane/ute" } == false)
        #expect(Self.refusal { _ = try c.call(.friendFix(fix), expecting: OKReply.self) }?.code == .notFound)
    }

    @Test func aFeedItemIsStoredExactlyOnceAcrossARestart() throws {
        let dir = try TemporaryDirectory("hotcold-friends")
        defer { dir.remove() }
        let args = ["--gpsd", "127.0.0.1:1", "--socket", dir.path("hc.sock"), "--log", dir.path("events.jsonl"), "--db", dir.path("hc.sqlite")]
        let first = try DaemonProcess(arguments: args, waitForSocket: false, extraFiles: false)
        let c = try Self.connect(dir.path("hc.sock"))
        let w = try Self.watcher(dir.path("hc.sock"), ["FEED"])
        let item = Self.item(seq: 1234)
        #expect(try c.call(.feedItem(FeedItemRequest(item: item)), expecting: OKReply.self).new == true)
        for _ in 0..<3 { #expect(try c.call(.feedItem(FeedItemRequest(item: item)), expecting: OKReply.self).new == false) }
        // The first within seconds (a loaded machine), then nothing more.
        let feed = [try w.line(ofClass: "FEED", timeout: 20)] + Self.lines(w, "FEED", for: 1)
        #expect(feed.count == 1, "\(feed)")
        #expect(try feed.first.map { try WireCoding.decode(FeedEvent.self, from: $0).item } == item)
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 90) == 0)
        first.stop()

        let second = try DaemonProcess(arguments: args, waitForSocket: false, extraFiles: false)
        defer { second.stop() }
        let again = try Self.connect(dir.path("hc.sock"))
        let w2 = try Self.watcher(dir.path("hc.sock"), ["FEED"])
        #expect(try again.call(.feedItem(FeedItemRequest(item: item)), expecting: OKReply.self).new == false, "a replay after a restart")
        #expect(Self.lines(w2, "FEED", for: 0.5).isEmpty)
        // A bridge resuming with `since` gets the FEED it missed from the log, once.
        let resumed = try Self.connect(dir.path("hc.sock"))
        let reply = try resumed.call(.watch(WatchRequest(classes: ["FEED"], since: 0)), expecting: WatchReply.self)
        #expect(reply.replay == 1, "\(reply)")
        #expect(try WireCoding.decode(FeedEvent.self, from: resumed.line(ofClass: "FEED")).item == item)
        // The same seq from another device, or another seq, is another item.
        #expect(try again.call(.feedItem(FeedItemRequest(item: Self.item(seq: 1234, device: "phone"))), expecting: OKReply.self).new == true)
        #expect(try again.call(.feedItem(FeedItemRequest(item: Self.item(seq: 1235))), expecting: OKReply.self).new == true)
        let world = try again.call(.feed(FeedRequest(world: true)), expecting: FeedReply.self)
        #expect(world.items.map(\.id).sorted() == ["jane/phone/1234", "jane/ute/1234", "jane/ute/1235"])
        #expect(world.items.first { $0.id == "jane/ute/1234" }.map { $0.item == item && $0.noteWords == 5 } == true)
    }

    @Test func likesAreIdempotentAndFollowedFeedsFiltered() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try Self.connect(d.socketPath)
        let w = try Self.watcher(d.socketPath, ["LIKE"])
        _ = try c.call(.feedItem(FeedItemRequest(item: Self.item(seq: 7, time: Date(timeIntervalSinceNow: -120)))), expecting: OKReply.self)
        _ = try c.call(.feedItem(FeedItemRequest(item: Self.item(seq: 3, author: "bob", device: "car"))), expecting: OKReply.self)
        // Nobody followed yet: only the world feed shows them, newest first.
        #expect(try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items.isEmpty)
        #expect(try c.call(.feed(FeedRequest(world: true)), expecting: FeedReply.self).items.map(\.id) == ["bob/car/3", "jane/ute/7"])
        _ = try c.call(.follow(FollowRequest(who: Self.jane)), expecting: OKReply.self)
        #expect(try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items.map(\.id) == ["jane/ute/7"])

        let id = FeedItemID(parsing: "jane/ute/7")!
        #expect(try c.call(.like(LikeRequest(item: id)), expecting: OKReply.self).new == true)
        #expect(try c.call(.like(LikeRequest(item: id)), expecting: OKReply.self).new == false)
        let likes = [try w.line(ofClass: "LIKE", timeout: 20)] + Self.lines(w, "LIKE", for: 1)
        #expect(likes.count == 1, "liking twice is one like: \(likes)")
        let like = try WireCoding.decode(LikeEvent.self, from: likes[0])
        #expect(like.item == "jane/ute/7" && like.like && like.user == CurrentUserName.name)
        var entry = try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items[0]
        #expect(entry.likes == 1 && entry.likedByMe && entry.likers == [CurrentUserName.name])
        #expect(try c.call(.like(LikeRequest(item: id, like: false)), expecting: OKReply.self).new == true)
        entry = try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items[0]
        #expect(entry.likes == 0 && !entry.likedByMe)
        #expect(try WireCoding.decode(LikeEvent.self, from: w.line(ofClass: "LIKE")).like == false)
        let missing = Self.refusal { _ = try c.call(.like(LikeRequest(item: FeedItemID(parsing: "jane/ute/8")!)), expecting: OKReply.self) }
        #expect(missing?.code == .notFound && missing?.field == "item")
        // Bounds at the edge: a note of 501 characters, a rating of 6.
        try c.send(#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":9,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"},"note":"\#(String(repeating: "x", count: 501))"}}"#)
        #expect(Self.refusal { _ = try c.reply(OKReply.self) }?.code == .tooLarge)
        try c.send(#"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":9,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"a","name":"A","kind":"bigthing"},"rating":6}}"#)
        #expect(Self.refusal { _ = try c.reply(OKReply.self) }?.code == .outOfRange)
    }

    /// A rating here is a RECORD and an own feed item numbered by it; likes the bridge relays
    /// for it count once per liker, the latest word winning.
    @Test func ownFindsAndTheLikesTheyReceive() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try Self.connect(d.socketPath)
        let w = try Self.watcher(d.socketPath, ["RECORD", "FEED"])
        try c.send(.store(StoreRequest(.rate(id: Self.banana, stars: 4))))
        _ = try c.line(ofClass: "STORE")
        let record = try WireCoding.decode(RecordEvent.self, from: w.line(ofClass: "RECORD"))
        #expect(record.place.name == "Big Banana" && record.rating == 4 && record.user == CurrentUserName.name)
        let seq = try #require(record.seq)
        // The own item is in the feed; no FEED event repeats the RECORD that made it.
        var own: FeedEntry?
        for _ in 0..<50 where own == nil {
            own = try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items.first
            if own == nil { usleep(100_000) }
        }
        let item = try #require(own).item
        #expect(item.author == "self" && item.device == "self" && item.seq == seq && item.kind == "record" && item.rating == 4)
        #expect(Self.lines(w, "FEED", for: 0.5).isEmpty, "the RECORD already said it")

        let bob = FriendID(parsing: "bob/car")!
        let t = Date()
        #expect(try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: true, time: t)), expecting: OKReply.self).new == true)
        #expect(try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: true, time: t)), expecting: OKReply.self).new == false)
        // An older unlike (a late redelivery) changes nothing.
        #expect(try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: false, time: t.addingTimeInterval(-5))),
                           expecting: OKReply.self).new == false)
        _ = try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: FriendID(parsing: "amy/bike")!, like: true, time: t)),
                       expecting: OKReply.self)
        let mine = try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items
        #expect(mine.map(\.id) == ["self/self/\(seq)"])
        #expect(mine.first.map { $0.likes == 2 && Set($0.likers) == ["bob/car", "amy/bike"] } == true, "\(mine)")
        #expect(try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: false, time: t.addingTimeInterval(1))),
                           expecting: OKReply.self).new == true)
        #expect(try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items.first?.likes == 1)
        let none = Self.refusal { _ = try c.call(.likeReceived(LikeReceivedRequest(itemSeq: seq + 1000, liker: bob, like: true, time: t)), expecting: OKReply.self) }
        #expect(none?.code == .notFound && none?.field == "item_seq")
    }
}

/// The name the daemon records for the test's own user.
enum CurrentUserName {
    static var name: String {
        guard let pw = getpwuid(getuid()), let n = pw.pointee.pw_name else { return "#\(getuid())" }
        return String(cString: n)
    }
}
