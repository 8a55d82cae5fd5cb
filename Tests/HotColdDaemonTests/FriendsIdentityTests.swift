import Foundation
import GPSInput
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 29, the daemon's side, built in process: the car's name on the broker (its bridge's
/// `report` `device`) gives its own finds one id everywhere, a user here can neither follow
/// the car itself nor like its own finds, a like received is an event, and each accepted fix
/// is a FIX to the watchers that ask for it (and to nobody else, nor to the log).
@Suite(.offCooperativePool, .serialized) struct FriendsIdentityTests {
    func object(_ line: String) throws -> [String: Any] { try #require(LineClient.object(line), "\(line)") }

    /// A RECORD (a rating) makes an own feed item: its seq.
    func rateSomething(_ daemon: InProcessDaemon) async throws -> (seq: Int, place: String) {
        let found = try object(try await daemon.ask(.search(SearchRequest(text: "banana"))))
        let id = try #require(((found["result"] as? [[String: Any]])?.first?["place"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.ask(.store(StoreRequest(.rate(id: id, stars: 4))))
        // The own feed is written off the publisher's lock: wait for it.
        for _ in 0..<200 {
            let feed = try object(try await daemon.ask(.feed(FeedRequest())))
            if let item = (feed["items"] as? [[String: Any]])?.first, let seq = item["seq"] as? Int { return (seq, id) }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no own feed item after a rating")
        return (0, id)
    }

    @Test func theCarsNameGivesItsFindsOneIdAndRefusesFollowingItselfAndLikingItsOwn() async throws {
        let daemon = try InProcessDaemon()
        let (seq, placeID) = try await rateSomething(daemon)
        // Before any bridge said: the own find is self/self/N, and it cannot be liked either.
        var feed = try object(try await daemon.ask(.feed(FeedRequest())))
        var item = try #require((feed["items"] as? [[String: Any]])?.first)
        #expect(item["id"] as? String == "self/self/\(seq)" && item["own"] as? Bool == true)
        let selfItem = try #require(FeedItemID(author: "self", device: "self", seq: seq))
        let refusedSelf = try object(try await daemon.ask(.like(LikeRequest(item: selfItem))))
        #expect(refusedSelf["code"] as? String == "bad_field")

        // The bridge reports as ann/ute: the same find is ann/ute/N, as its followers know it.
        let ann = try #require(FriendID(parsing: "ann/ute"))
        let report = try object(try await daemon.ask(.report(ReportRequest(service: "hotcold-mqtt-hotcold", state: "connected", device: ann))))
        #expect(report["class"] as? String == "REPORT")
        feed = try object(try await daemon.ask(.feed(FeedRequest())))
        item = try #require((feed["items"] as? [[String: Any]])?.first)
        #expect(item["id"] as? String == "ann/ute/\(seq)")
        #expect(item["author"] as? String == "ann" && item["device"] as? String == "ute" && item["own"] as? Bool == true)

        // Following the car itself, and liking its own find: refused, with a sentence.
        let follow = try object(try await daemon.ask(.follow(FollowRequest(who: ann))))
        #expect(follow["code"] as? String == "bad_field" && follow["field"] as? String == "who")
        #expect((follow["message"] as? String)?.contains("ann/ute is this car itself") == true, "\(follow)")
        let own = try #require(FeedItemID(author: "ann", device: "ute", seq: seq))
        let like = try object(try await daemon.ask(.like(LikeRequest(item: own))))
        #expect(like["code"] as? String == "bad_field" && like["field"] as? String == "item")
        #expect((like["message"] as? String)?.contains("one of this car's own finds") == true, "\(like)")
        // Another device is followed as ever.
        let bob = try #require(FriendID(parsing: "bob/car"))
        #expect(try object(try await daemon.ask(.follow(FollowRequest(who: bob))))["ok"] as? Bool == true)

        // A like received is an event, under the find's one id, with its place.
        let watcher = try daemon.connect()
        try watcher.send(.watch(WatchRequest(classes: ["LIKE_RECEIVED"])))
        _ = try watcher.line(ofClass: "WATCH")
        let received = try object(try await daemon.ask(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: true, time: Date()))))
        #expect(received["new"] as? Bool == true)
        let event = try object(try watcher.line(ofClass: "LIKE_RECEIVED"))
        #expect(event["item"] as? String == "ann/ute/\(seq)" && event["liker"] as? String == "bob/car" && event["like"] as? Bool == true)
        #expect((event["place"] as? [String: Any])?["id"] as? String == placeID)
        #expect(event["seq"] is Int)
        // A repeat changes nothing and says nothing.
        #expect(try object(try await daemon.ask(.likeReceived(LikeReceivedRequest(itemSeq: seq, liker: bob, like: true, time: Date()))))["new"] as? Bool == false)

        // The name is kept: a restart on the same files still lists ann/ute/N.
        let dir = daemon.dir
        await daemon.stop(clean: true, keep: true)
        let again = try InProcessDaemon(directory: dir)
        feed = try object(try await again.ask(.feed(FeedRequest())))
        #expect((feed["items"] as? [[String: Any]])?.first?["id"] as? String == "ann/ute/\(seq)")
        await again.stop()
    }

    @Test func eachAcceptedFixIsAFixToWatchersNamingItAndToNobodyElse() async throws {
        let daemon = try InProcessDaemon()
        let named = try daemon.connect()
        try named.send(.watch(WatchRequest(classes: ["FIX", "GPS"])))
        _ = try named.line(ofClass: "WATCH")
        let plain = try daemon.connect()
        try plain.send(.watch(WatchRequest()))
        _ = try plain.line(ofClass: "WATCH")
        let t0 = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for i in 0..<3 {
            let fix = Fix(time: t0.addingTimeInterval(Double(i)), coordinate: Coordinate(latitude: -30.3 + Double(i) * 1e-4, longitude: 153.1),
                          mode: .threeD, eph: 6, speed: 11.1, track: 0)
            daemon.parts.host.handle(.fix(fix, receivedAt: .now))
        }
        var fixes: [[String: Any]] = []
        while fixes.count < 3, let line = try named.readLine(timeout: 30) {
            if let o = LineClient.object(line), o["class"] as? String == "FIX" { fixes.append(o) }
        }
        #expect(fixes.count == 3)
        #expect(fixes.allSatisfy { $0["seq"] == nil })                       // live only: no number
        #expect(abs((fixes.last?["lat"] as? Double ?? 0) + 30.2998) < 1e-9)
        #expect(fixes.first?["speed_mps"] as? Double == 11.1 && fixes.first?["mode"] as? Int == 3)
        // A plain watch gets the engine's events but never a FIX.
        var plainClasses: [String] = []
        while let line = try? plain.readLine(timeout: 0.5) { plainClasses.append(WireCoding.className(of: line) ?? "?") }
        #expect(!plainClasses.contains("FIX") && plainClasses.contains("GPS"), "\(plainClasses)")
        // Nor the log: a FIX is no event.
        try await Task.sleep(for: .milliseconds(300))
        let log = (try? String(contentsOfFile: daemon.configuration.log.path, encoding: .utf8)) ?? ""
        #expect(!log.contains(#""class":"FIX""#))
        await daemon.stop()
    }
}
