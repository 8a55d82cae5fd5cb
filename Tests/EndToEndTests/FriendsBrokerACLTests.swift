import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, strangers on the broker: three cars — each a built `hotcoldd` fed by its own real
/// gpsd and a built `hotcold-mqtt` with its own login — on one real mosquitto with a password
/// file, no anonymous access and the **shipped ACL** (`config/mosquitto-hotcold.acl`). Bob and
/// Carol follow Ann; Ann finds a place. Following and likes work under the ACL, and Bob cannot
/// like in Carol's name: on Carol's topic (or the old place, Ann's own `…/likes`) the broker
/// refuses it; on his own topic naming Carol, Ann's bridge refuses it. Carol reads no like
/// meant for Ann. Bob's real like goes out as `FRIEND_LIKE`, since Ann's location says her
/// bridge reads it.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available && GPSDHarness.gpsdAvailable))
struct FriendsBrokerACLTests: BridgeSuite {
    typealias Car = FriendsRealTimeTests.Car
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 12)

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw TestFailure("\(tool) \(args): \(r.stderr)") }
    }

    /// `mosquitto_pub` as `user` (MQTT v5, QoS 1, so a refusal comes back as a reason code);
    /// what it printed on stderr.
    func publish(_ broker: MosquittoBroker, as user: String, _ topic: String, _ payload: String) throws -> String {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
                           ["-h", "127.0.0.1", "-p", String(broker.port), "-u", user, "-P", "\(user)-secret", "-V", "mqttv5",
                            "-q", "1", "-t", topic, "-m", payload]).stderr
    }

    /// Polls `condition` every 100 ms until it holds or `seconds` pass.
    func waitUntil(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test func theTopicNamesTheSenderAndTheShippedACLLetsFriendsWork() throws {
        let dir = try TemporaryDirectory("broker-acl")
        defer { dir.remove() }
        let cars = try [Car("ann", "ute"), Car("bob", "car"), Car("carol", "van")]
        defer { for c in cars { c.stop() } }
        let (ann, bob, carol) = (cars[0], cars[1], cars[2])
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.path("passwd"), "ann", "ann-secret"])
        for c in cars.dropFirst() { try run("/usr/bin/mosquitto_passwd", ["-b", dir.path("passwd"), c.user, "\(c.user)-secret"]) }
        for c in cars { try "\(c.user)-secret\n".write(toFile: dir.path("\(c.user).pw"), atomically: true, encoding: .utf8) }
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))",
                                                       "acl_file \(TestData.repo("config/mosquitto-hotcold.acl").path)"],
                                               anonymous: false)
        defer { broker.stop() }

        let place = FriendsRealTimeTests.east(150)
        ann.daemon = try startDaemon(ann.dir, gpsd: ann.gpsd, targets: ["\(place.latitude),\(place.longitude),Roadside Thing"])
        bob.daemon = try startDaemon(bob.dir, gpsd: bob.gpsd, targets: [])
        carol.daemon = try startDaemon(carol.dir, gpsd: carol.gpsd, targets: [])
        for c in [bob, carol] { #expect(try c.call(#"{"cmd":"follow","who":"ann/ute"}"#)["ok"] as? Bool == true) }
        for c in cars {
            c.bridge = try BridgeProcess(dir: c.dir, brokerPort: broker.port, device: c.device, user: c.user,
                                         brokerExtra: [#"username = "\#(c.user)""#, #"password_file = "\#(dir.path("\(c.user).pw"))""#])
        }
        for c in [bob, carol] {
            #expect(waitUntil(20) { !c.bridge.lines(containing: "following 1 device").isEmpty }, "\(c.who): \(c.bridge.stderr)")
        }
        for c in cars { try LineClient(path: c.dir.path("hc.sock")).waitUntilGPSDConnected() }

        // Carol, logged in as herself, listens for every like on the broker.
        let carolHears = dir.path("carol-hears.txt")
        let carolSub = try SpawnedProcess(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-u", "carol",
                                           "-P", "carol-secret", "-V", "mqttv5", "-q", "1", "-v", "-t", "hotcold/+/+/likes/#"],
                                          stdout: carolHears)
        defer { carolSub.terminate() }
        // Ann, as herself, reads what reaches her likes: which class Bob's bridge wrote.
        let annHears = dir.path("ann-hears.txt")
        let annSub = try SpawnedProcess(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-u", "ann",
                                         "-P", "ann-secret", "-V", "mqttv5", "-q", "1", "-v", "-t", "hotcold/+/+/likes/ann/ute"],
                                        stdout: annHears)
        defer { annSub.terminate() }

        // Ann drives east from 150 m before the place and stops on it: her find.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var x = 0.0
        var find: Int?
        for second in 0..<60 where find == nil {
            let moving = x < 150
            ann.fix(FriendsRealTimeTests.east(x), time: start.addingTimeInterval(Double(second)), speed: moving ? 12 : 0, course: 90)
            for c in [bob, carol] { c.fix(FriendsRealTimeTests.origin, time: start.addingTimeInterval(Double(second)), speed: 0, course: 0) }
            if moving { x = min(150, x + 12) }
            find = FriendsRealTimeTests.log(ann).first { $0["class"] as? String == "ARRIVED" && ($0["target"] as? [String: Any])?["id"] as? String == "point-1" }?["seq"] as? Int
            Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(Double(second + 1)).timeIntervalSinceNow))
        }
        let seq = try #require(find, "Ann never arrived: \(ann.bridge.stderr.suffix(2000))")
        let id = "ann/ute/\(seq)"

        // Following works under the ACL: the find reaches both followers' feeds.
        func feed(_ c: Car) throws -> [[String: Any]] {
            (try c.call(#"{"cmd":"feed","limit":200}"#, reply: "FEED")["items"] as? [[String: Any]]) ?? []
        }
        for c in [bob, carol] {
            #expect(try waitUntil(20) { try feed(c).contains { $0["id"] as? String == id } }, "\(c.who)'s feed lacks \(id): \(c.bridge.stderr.suffix(2000))")
        }

        // Bob forges a like by Carol, under the class bridges before 1.11 wrote (which Ann's
        // still reads: it is refused for its liker, not its class). On Carol's topic, or where likes went before (Ann's own
        // `…/likes`): the broker refuses it (MQTT v5 PUBACK 135).
        let forged = #"{"class":"LIKE","cmd":"like_received","item_seq":\#(seq),"like":true,"liker":"carol/van","time":"\#(ISO8601.format(Date()))"}"#
        for topic in ["hotcold/carol/van/likes/ann/ute", "hotcold/ann/ute/likes"] {
            let said = try publish(broker, as: "bob", topic, forged)
            #expect(said.contains("Not authorized"), "bob publishing on \(topic): \(said)")
        }
        // On his own topic, naming Carol in the payload: Ann's bridge takes the liker from the
        // topic, and refuses a like that names anyone else.
        _ = try publish(broker, as: "bob", "hotcold/bob/car/likes/ann/ute", forged)
        let refusal = "ignored a message on hotcold/bob/car/likes/ann/ute: a like by carol/van on bob/car's topic"
        #expect(waitUntil(10) { !ann.bridge.lines(containing: refusal).isEmpty }, "\(ann.bridge.stderr)")

        // Bob's own like, through his daemon and bridge: Ann's item counts it, from bob/car only.
        #expect(try bob.call(#"{"cmd":"like","item":"\#(id)"}"#)["ok"] as? Bool == true)
        func own() throws -> [String: Any]? { try feed(ann).first { ($0["seq"] as? Int) == seq } }
        #expect(try waitUntil(20) { (try own()?["likes"] as? Int ?? 0) > 0 }, "Ann's bridge: \(ann.bridge.stderr.suffix(2000))")
        let liked = try own()
        #expect(liked?["likers"] as? [String] == ["bob/car"], "\(String(describing: liked))")
        #expect(ann.bridge.lines(containing: "ignored a message").count == 1, "\(ann.bridge.stderr)")
        // Ann's location said her bridge reads the new class, so Bob's wrote that.
        #expect(waitUntil(10) {
            ((try? String(contentsOfFile: annHears, encoding: .utf8)) ?? "").contains(#"hotcold/bob/car/likes/ann/ute {"class":"FRIEND_LIKE","cmd":"like_received","item_seq":\#(seq),"like":true,"liker":"bob/car""#)
        }, "\((try? String(contentsOfFile: annHears, encoding: .utf8)) ?? "")")

        // Ann's car goes back to a bridge before 1.11: its location carries no version. Then a
        // location Bob's bridge refuses (and logs), published after it on the same topic: once
        // that is logged, the one before it has been read. Bob's unlike then goes out under the
        // old class, which Ann's bridge reads.
        let older = #"{"gps_accuracy":5,"latitude":-30.3,"longitude":153.1015,"time":"\#(ISO8601.format(Date()))"}"#
        _ = try publish(broker, as: "ann", "hotcold/ann/ute/location", older)
        _ = try publish(broker, as: "ann", "hotcold/ann/ute/location", older.replacingOccurrences(of: "-30.3", with: "-95.5"))
        #expect(waitUntil(20) { !bob.bridge.lines(containing: "ignored a message on hotcold/ann/ute/location: latitude -95.5").isEmpty },
                "\(bob.bridge.stderr.suffix(2000))")
        #expect(try bob.call(#"{"cmd":"unlike","item":"\#(id)"}"#)["ok"] as? Bool == true)
        #expect(try waitUntil(20) { (try own()?["likes"] as? Int ?? 1) == 0 }, "Ann's bridge: \(ann.bridge.stderr.suffix(2000))")
        #expect(waitUntil(10) {
            ((try? String(contentsOfFile: annHears, encoding: .utf8)) ?? "").contains(#"hotcold/bob/car/likes/ann/ute {"class":"LIKE","cmd":"like_received","item_seq":\#(seq),"like":false,"liker":"bob/car""#)
        }, "\((try? String(contentsOfFile: annHears, encoding: .utf8)) ?? "")")

        // Carol subscribed to every like: the broker delivered Bob's to Ann, and none to her.
        // (Her subscription is as old as Ann's, so what Ann got she would have got too.)
        carolSub.terminate()
        let heard = (try? String(contentsOfFile: carolHears, encoding: .utf8)) ?? ""
        #expect(heard.isEmpty, "Carol read likes meant for Ann: \(heard)")
    }
}
