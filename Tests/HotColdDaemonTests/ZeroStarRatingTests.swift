import Foundation
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 31: 0 stars is a rating (`rate` takes 0–5), so it is shared like any other: the
/// RECORD carries it, the car's own feed item shows it, and a friend's item with 0 stars is
/// stored and listed — before, 0 became "no rating" on the way and a friend's was refused.
@Suite(.offCooperativePool, .serialized) struct ZeroStarRatingTests {
    func object(_ line: String) throws -> [String: Any] { try #require(LineClient.object(line), "\(line)") }

    @Test func zeroStarsReachTheOwnFeedAndAFriendsIsKept() async throws {
        let daemon = try InProcessDaemon()
        let found = try object(try await daemon.ask(.search(SearchRequest(text: "banana"))))
        let id = try #require(((found["result"] as? [[String: Any]])?.first?["place"] as? [String: Any])?["id"] as? String)
        let rated = try object(try await daemon.ask(.store(StoreRequest(.rate(id: id, stars: 0)))))
        #expect(rated["class"] as? String == "STORE", "\(rated)")

        // The own item is written off the publisher's lock: wait until it is there.
        var own: [String: Any]?
        for _ in 0..<500 where own == nil {
            let feed = try object(try await daemon.ask(.feed(FeedRequest())))
            own = (feed["items"] as? [[String: Any]])?.first
            if own == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let item = try #require(own)
        #expect(item["kind"] as? String == "record" && item["rating"] as? Int == 0, "\(item)")

        // A followed friend's 0-star find is accepted, kept and listed with its 0.
        let jane = try #require(FriendID(parsing: "jane/ute"))
        _ = try await daemon.ask(.follow(FollowRequest(who: jane)))
        let friend = #"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":77,"time":"2026-11-25T10:00:00Z","kind":"record","place":{"id":"halans:x","name":"Big Thing","kind":"bigthing"},"rating":0}}"#
        let ok = try object(try await daemon.ask(friend))
        #expect(ok["ok"] as? Bool == true, "\(ok)")
        let feed = try object(try await daemon.ask(.feed(FeedRequest())))
        let janes = (feed["items"] as? [[String: Any]])?.first { $0["author"] as? String == "jane" }
        #expect(janes?["rating"] as? Int == 0, "\(feed)")
        // Six stars is still out of range.
        let six = try object(try await daemon.ask(friend.replacingOccurrences(of: #""rating":0"#, with: #""rating":6"#)
                                                     .replacingOccurrences(of: #""seq":77"#, with: #""seq":78"#)))
        #expect(six["code"] as? String == "out_of_range", "\(six)")
        await daemon.stop()
    }
}
