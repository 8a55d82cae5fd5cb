import Foundation
import Glibc
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The friend radar inside a real daemon fed by a real gpsd: our car drives past a parked
/// friend (positions through `friend_fix`, as the bridge sends them) and the ordinary events
/// come out with `target.kind` `friend` — PROXIMITY, one ARRIVED, one DEPARTED — while the
/// car's own arrival at a hunted place becomes its own feed item.
@Suite(.offCooperativePool, .enabled(if: GPSDHarness.gpsdAvailable))
struct FriendRadarDaemonTests {
    @Test func drivingPastAParkedFriendMeetsOnceAndParts() throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        // Our track starts a minute ago (friend fixes must be within 60 s of the daemon's clock).
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded())
        let track = SyntheticTrack(start: (-30.30, 153.10), startTime: start, bearing: 90, speed: 15)
        let parked = track.point(second: 40)      // 600 m along our road
        let hunted = track.point(second: 20)
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)",
                                              "--target", "\(hunted.latitude),\(hunted.longitude),Roadside Thing"])
        defer { d.stop() }
        let c = try FriendsDaemonTests.connect(d.socketPath)
        let watcher = try FriendsDaemonTests.watcher(d.socketPath, ["PROXIMITY", "ARRIVED", "DEPARTED", "FEED"])
        try c.waitUntilGPSDConnected()
        let jane = FriendID(parsing: "jane/ute")!
        _ = try c.call(.follow(FollowRequest(who: jane)), expecting: OKReply.self)

        var lines: [String] = []
        for s in 0..<70 {
            for sentence in track.sentences(second: s) { try gpsd.send(sentence) }
            let p = track.point(second: s)
            let fix = FriendFixRequest(who: jane, name: "Jane", time: p.time.addingTimeInterval(0.5),
                                       lat: parked.latitude, lon: parked.longitude, accuracyM: 8, speedMps: 0)
            _ = try c.call(.friendFix(fix), expecting: OKReply.self)
            if s == 45 {
                let status = try c.call(.status, expecting: StatusReply.self)
                let f = try #require(status.friends?.first)
                #expect(f.who == "jane/ute" && f.distanceM.map { $0 < 150 } == true, "\(f)")
            }
            while let l = try? watcher.readLine(timeout: 0.1) { lines.append(l) }
        }
        let end = Date().addingTimeInterval(3)
        while Date() < end, let l = try? watcher.readLine(timeout: 0.5) { lines.append(l) }

        let messages = lines.compactMap { try? EventMessage.decode(line: $0) }
        let events = messages.map(\.event)
        let friend = events.filter { $0.target?.id == "friend:jane/ute" }
        #expect(friend.allSatisfy { $0.target?.kind == .friend && $0.target?.name == "Jane" })
        let arrivals = friend.filter { if case .arrived = $0 { true } else { false } }
        let departures = friend.filter { if case .departed = $0 { true } else { false } }
        #expect(arrivals.count == 1 && departures.count == 1, "\(friend.map { EventMessage($0).line })")
        #expect(friend.contains { if case .proximity(let p) = $0 { p.trend == .hotter } else { false } })
        // The car's own arrival at the hunted place is in its feed, numbered by its ARRIVED (and
        // announced by that ARRIVED alone: no FEED event repeats it).
        let ownArrival = try #require(messages.first { if case .arrived(let p) = $0.event { p.target.name == "Roadside Thing" } else { false } })
        #expect(!lines.contains { WireCoding.className(of: $0) == "FEED" }, "\(lines.filter { $0.contains("FEED") })")
        let mine = try c.call(.feed(FeedRequest()), expecting: FeedReply.self).items
        #expect(mine.map(\.id) == ["self/self/\(ownArrival.seq ?? -1)"])
        #expect(mine.first.map { $0.item.author == "self" && $0.item.kind == "arrived" && $0.item.place.name == "Roadside Thing" } == true)
        // near --kind friend from the car's last fix.
        let near = try c.call(.near(NearRequest(kinds: ["friend"])), result: .near, as: [NearbyPlace].self)
        #expect(near.map(\.target.id) == ["friend:jane/ute"] && near.first.map { $0.distanceM > 400 } == true, "\(near)")
    }
}

/// Follows and feeds belong to their Unix user.
@Suite(.offCooperativePool, .serialized, .enabled(if: UnixAccounts.available))
struct FriendsPerUserTests {
    @Test func followsAndLikesAreEachUsersOwn() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let alice = try accounts.user("hcfa"), bob = try accounts.user("hcfb"), eve = try accounts.user("hcfe")
        let config = try TemporaryDirectory("hotcold-friends-users")
        defer { config.remove() }
        try """
            [socket]
            mode = "0666"
            allowed_users = ["\(alice.name)", "\(bob.name)"]
            allowed_groups = []
            """.write(toFile: config.path("hc.toml"), atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", config.path("hc.toml"), "--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let item = #"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":5,"time":"2026-11-25T10:00:00.000Z","kind":"arrived","place":{"id":"halans:d0577fb8cf","name":"Big Banana","kind":"bigthing"}}}"#
        let a = try ask(d, alice, [#"{"cmd":"follow","who":"jane/ute"}"#, item, #"{"cmd":"like","item":"jane/ute/5"}"#,
                                   #"{"cmd":"following"}"#, #"{"cmd":"feed"}"#])
        #expect(a.map { $0["class"] as? String } == ["RESULT", "RESULT", "RESULT", "FOLLOWING", "FEED"], "\(a)")
        #expect(((a[3]["following"] as? [[String: Any]])?.map { $0["who"] as? String }) == ["jane/ute"])
        let aliceFeed = a[4]["items"] as? [[String: Any]] ?? []
        #expect(aliceFeed.count == 1 && aliceFeed.first?["liked_by_me"] as? Bool == true && aliceFeed.first?["likers"] as? [String] == [alice.name])

        let b = try ask(d, bob, [#"{"cmd":"following"}"#, #"{"cmd":"feed"}"#, #"{"cmd":"feed","world":true}"#,
                                 #"{"cmd":"following","all":true}"#])
        #expect((b[0]["following"] as? [Any])?.isEmpty == true, "bob follows nobody: \(b[0])")
        #expect((b[1]["items"] as? [Any])?.isEmpty == true, "nor sees jane without --world")
        let world = b[2]["items"] as? [[String: Any]] ?? []
        #expect(world.count == 1 && world.first?["liked_by_me"] as? Bool == false && world.first?["likes"] as? Int == 1)
        #expect(b[3]["version"] as? Int == 1)
        // A user who may not write may not follow, nor feed the radar.
        let e = try ask(d, eve, [#"{"cmd":"follow","who":"jane/ute"}"#,
                                 #"{"cmd":"friend_fix","who":"jane/ute","time":"\#(ISO8601.format(Date()))","lat":-30,"lon":153}"#,
                                 #"{"cmd":"feed"}"#])
        #expect(e.map { $0["code"] as? String } == ["not_allowed", "not_allowed", nil], "\(e)")
        #expect(e[2]["class"] as? String == "FEED")
    }

    func ask(_ d: DaemonProcess, _ u: UnixUser, _ lines: [String]) throws -> [[String: Any]] {
        let c = try ForeignClient(uid: u.uid, gid: u.gid, arguments: ["ask", d.socketPath])
        defer { c.finish() }
        var out: [[String: Any]] = []
        for l in lines {
            c.write(l)
            out.append(try #require(c.readObject(timeout: 60), "no reply to \(l)"))
        }
        return out
    }
}
