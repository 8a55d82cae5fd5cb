import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 28, a fair feed on a real daemon: a burst of 4,000 feed items from one friend's
/// device, claiming to be from next year, after a few from another friend. The flooding device
/// keeps its share (1,000, its newest received), the other friend's items stay, and the 3,000
/// dropped are counted in `status` (`feed.dropped`) and shown by `hotcold status`.
@Suite(.offCooperativePool, .serialized) struct FriendsFeedBurstTests {
    @Test func aBurstOf4000KeepsItsShareAndItsLossesAreCounted() throws {
        let config = try TemporaryDirectory("feed-burst")
        defer { config.remove() }
        // The burst is the point here, not the socket's write rate (5 a second by default).
        try """
            [socket]
            write_burst = 100000
            writes_per_second = 100000
            """.write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try LineClient(path: d.socketPath)
        let now = Date()
        func item(_ who: String, _ seq: Int, claimed: Date) -> FeedItemRequest {
            let id = FriendID(parsing: who)!
            return FeedItemRequest(item: FeedItem(author: id.user, device: id.device, seq: seq, time: claimed, kind: "arrived",
                                                  place: .init(id: "p-\(seq)", name: "Place \(seq)", kind: "point")))
        }
        for seq in 1...5 { _ = try c.call(.feedItem(item("ann/ute", seq, claimed: now)), expecting: OKReply.self) }
        let started = Date()
        for seq in 1...4000 {
            _ = try c.call(.feedItem(item("bob/car", seq, claimed: now.addingTimeInterval(365 * 86_400))), expecting: OKReply.self)
        }
        print("feed burst: 4,000 feed_item in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let status = try c.call(.status, expecting: StatusReply.self)
        #expect(status.feed == StatusReply.Feed(dropped: 3000, ownNotKept: 0), "\(String(describing: status.feed))")
        // Ann's, before Bob's claimed next year (the feed lists by the time an item claims).
        let feed = try c.call(.feed(FeedRequest(world: true, limit: 200, before: now.addingTimeInterval(86_400))), expecting: FeedReply.self)
        #expect(feed.items.map(\.id).sorted() == (1...5).map { "ann/ute/\($0)" }, "ann's items are not bob's to push out")
        let shown = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", d.socketPath]).stdout
        #expect(shown.contains("feed: 3000 items dropped"), "\(shown)")
    }
}
