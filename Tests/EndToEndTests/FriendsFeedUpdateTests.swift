import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// One feed item per place and person, for real: car a's user taps the stars of one cache
/// seven times (0 among them); its built `hotcold-mqtt` shares each RECORD on a real mosquitto;
/// car b (its own `hotcoldd` and bridge) follows a. Each car's feed holds one item for the cache,
/// saying the last rating, under one id on both — not seven.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available))
struct FriendsFeedUpdateTests {
    static let cache = "GC2T9RW"
    static let taps = [3, 5, 0, 1, 2, 5, 4]

    static func items(_ socket: String, place: String) throws -> [[String: Any]] {
        let c = try LineClient(path: socket)
        try c.send(#"{"cmd":"feed","world":true}"#)
        let reply = try c.read(class: "FEED", timeout: 30)
        return (reply["items"] as? [[String: Any]] ?? []).filter { ($0["place"] as? [String: Any])?["id"] as? String == place }
    }

    @Test func sevenRatingTapsAreOneItemWithTheLastRatingOnBothCars() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let a = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { a.stop() }
        let b = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { b.stop() }
        let imported = try Subprocess.run(Binaries.url("hotcold"),
                                          ["import", TestData.url("geocaches/cachebox3-GC2T9RW.gpx").path, "--socket", a.socketPath])
        try #require(imported.status == 0, "\(imported.stderr)")
        let followed = try LineClient(path: b.socketPath)
        try followed.send(#"{"cmd":"follow","who":"root/ute"}"#)
        #expect(try followed.read(class: "RESULT")["ok"] as? Bool == true)
        // The records are root's (this test's user): car a's bridge shares root's.
        let bridgeA = try BridgeProcess(dir: a.dir, brokerPort: broker.port, device: "ute", user: "root", extra: ["[share]", "records = true"])
        defer { bridgeA.stop() }
        let bridgeB = try BridgeProcess(dir: b.dir, brokerPort: broker.port, device: "car", user: "t")
        defer { bridgeB.stop() }
        let deadline = Date().addingTimeInterval(30)
        while bridgeB.lines(containing: "following 1 device").isEmpty, Date() < deadline { usleep(50_000) }
        #expect(!bridgeB.lines(containing: "following 1 device").isEmpty, "\(bridgeB.stderr.suffix(1500))")

        let tapper = try LineClient(path: a.socketPath)
        for stars in Self.taps {
            try tapper.send(#"{"cmd":"store","op":"rate","id":"\#(Self.cache)","stars":\#(stars)}"#)
            _ = try tapper.read(class: "STORE")
        }
        // Wait until b has the last rating under the id a lists its own find by.
        var ownA: [[String: Any]] = [], atB: [[String: Any]] = []
        let until = Date().addingTimeInterval(60)
        repeat {
            usleep(100_000)
            ownA = try Self.items(a.socketPath, place: Self.cache)
            atB = try Self.items(b.socketPath, place: Self.cache)
        } while Date() < until && !(ownA.count == 1 && atB.count == 1 && ownA.first?["id"] as? String == atB.first?["id"] as? String
                                    && (ownA.first?["id"] as? String)?.hasPrefix("root/ute/") == true && atB.first?["rating"] as? Int == 4)
        #expect(ownA.count == 1 && ownA.first?["rating"] as? Int == 4 && ownA.first?["own"] as? Bool == true, "car a: \(ownA)")
        #expect(atB.count == 1 && atB.first?["rating"] as? Int == 4, "car b: \(atB); bridge a: \(bridgeA.stderr.suffix(800))")
        #expect(ownA.first?["id"] as? String == atB.first?["id"] as? String, "one id on both cars: \(ownA) \(atB)")
        // A late redelivery of an earlier tap (a broker resending) changes nothing at b.
        let firstSeq = ((atB.first?["seq"] as? Int) ?? 2) - 1
        let late = try LineClient(path: b.socketPath)
        try late.send(#"{"cmd":"feed_item","item":{"author":"root","device":"ute","seq":\#(firstSeq),"time":"2026-11-25T10:00:00Z","kind":"record","place":{"id":"\#(Self.cache)","name":"der Hampir","kind":"geocache"},"rating":3}}"#)
        #expect(try late.read(class: "RESULT")["new"] as? Bool == false)
        #expect(try Self.items(b.socketPath, place: Self.cache).map { $0["rating"] as? Int } == [4])
    }
}
