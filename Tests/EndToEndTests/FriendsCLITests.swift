import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `hotcold follow`, `following`, `feed`, `like`, `unlike` and `near --kind friend` against a
/// real daemon: the words people read and the exit statuses scripts branch on.
@Suite(.offCooperativePool) struct FriendsCLITests {
    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args)
    }

    @Test func followFeedAndLikeFromTheCommandLine() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let s = d.socketPath
        let followed = Date()
        let follow = try hotcold(["follow", "jane/ute", "--socket", s])
        #expect(follow.status == 0 && follow.stdout == "Following jane/ute.\n", "\(follow.stdout)\(follow.stderr)")
        #expect(try hotcold(["follow", "jane/ute", "--socket", s]).stdout == "Already following jane/ute.\n")
        let bad = try hotcold(["follow", "jane", "--socket", s])
        #expect(bad.status == 64, "\(bad.stderr)")
        let following = try hotcold(["following", "--socket", s])
        // "just now" within the minute; on a machine so busy that the commands above took longer,
        // at most the whole minutes that have passed since the follow was asked for.
        let minutes = Int(Date().timeIntervalSince(followed) / 60)
        let shown = following.stdout.firstMatch(of: /^jane\/ute  not on the radar  since (just now|(\d+) min ago)/)
        #expect(shown != nil && (shown?.2).map { Int($0)! >= 1 && Int($0)! <= minutes } ?? true, "\(following.stdout)")

        // The bridge's feed item, twelve minutes old, as it would relay it.
        let c = try FriendsDaemonTests.connect(s)
        let when = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 - 12 * 60 - 5) * 1000).rounded() / 1000)
        let item = FeedItem(author: "jane", device: "ute", seq: 1234, time: when, kind: "arrived",
                            place: .init(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing"),
                            rating: 4, note: "Best milkshake on the coast")
        _ = try c.call(.feedItem(FeedItemRequest(item: item)), expecting: OKReply.self)
        let t = Date()
        let like = try hotcold(["like", "jane/ute/1234", "--socket", s])
        #expect(like.status == 0 && like.stdout == "Liked jane/ute/1234.\n", "\(like.stdout)\(like.stderr)")
        #expect(try hotcold(["like", "jane/ute/1234", "--socket", s]).stdout == "You already like jane/ute/1234.\n")
        let feed = try hotcold(["feed", "--socket", s])
        #expect(feed.status == 0, "\(feed.stderr)")
        // Who liked it is named (issue 31: the help says so).
        let me = String(cString: getpwuid(getuid())!.pointee.pw_name)
        #expect(feed.stdout == "jane · ute — arrived at the Big Banana, 12 min ago ★4 'Best milkshake on the coast' · 1 like: \(me) (you like it)  [jane/ute/1234]\n",
                "\(feed.stdout)")
        let json = try hotcold(["feed", "--json", "--socket", s])
        let reply = try WireCoding.decode(FeedReply.self, from: json.stdout.trimmingCharacters(in: .newlines))
        #expect(reply.items.map(\.id) == ["jane/ute/1234"] && reply.items.first?.likes == 1)
        #expect(try hotcold(["unlike", "jane/ute/1234", "--socket", s]).stdout == "No longer liking jane/ute/1234.\n")
        let missing = try hotcold(["like", "jane/ute/9", "--socket", s])
        #expect(missing.status != 0 && missing.stderr.contains("no feed item"), "\(missing.stderr)")
        let notAnID = try hotcold(["like", "banana", "--socket", s])
        #expect(notAnID.status == 64 && notAnID.stderr.contains("USER/DEVICE/SEQ"), "\(notAnID.stderr)")
        // A friend on the radar, no fix of ours: near --kind friend says why it lists none.
        _ = try c.call(.friendFix(FriendFixRequest(who: FriendID(parsing: "jane/ute")!, name: "Jane", time: t, lat: -30.1, lon: 153.1)),
                       expecting: OKReply.self)
        let status = try hotcold(["status", "--socket", s])
        #expect(status.stdout.contains("friends: 1 on the radar") && status.stdout.contains("Jane (jane/ute): on the radar, distance unknown"),
                "\(status.stdout)")
        let near = try hotcold(["near", "--kind", "friend", "--socket", s])
        #expect(near.status != 0 && near.stderr.contains("no fix"), "\(near.stdout)\(near.stderr)")
        let offline = try hotcold(["near", "--kind", "friend", "--db", d.dir.path("other.sqlite")])
        #expect(offline.status == 64 && offline.stderr.contains("running hotcoldd"), "\(offline.stderr)")
        #expect(try hotcold(["unfollow", "jane/ute", "--socket", s]).stdout == "No longer following jane/ute.\n")
    }

    @Test func watchShowsTheFriendsEvents() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let s = d.socketPath
        let watch = Process()
        watch.executableURL = Binaries.url("hotcold")
        watch.arguments = ["watch", "--socket", s, "--count", "2", "--class", "FEED", "--class", "FOLLOWING_CHANGED"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        usleep(500_000)
        let c = try FriendsDaemonTests.connect(s)
        _ = try c.call(.follow(FollowRequest(who: FriendID(parsing: "jane/ute")!)), expecting: OKReply.self)
        let item = FeedItem(author: "jane", device: "ute", seq: 7, time: Date(), kind: "arrived",
                            place: .init(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing"))
        _ = try c.call(.feedItem(FeedItemRequest(item: item)), expecting: OKReply.self)
        watch.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix("follows changed (version 1)")
                && lines[1].contains("feed: jane · ute — arrived at the Big Banana, just now  [jane/ute/7]"), "\(text)")
    }
}
