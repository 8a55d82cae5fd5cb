import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Gone is gone, with the bundled catalogue (data/bigthings.json): The Big Slurpee, Coffs
/// Harbour, was dismantled in 2009 (`"status": "demolished"`). Parked on its point, a roam never
/// tracks it; `near` lists it saying why it is gone; hunting it by its id works and says it is
/// gone (the reply, STATUS and TARGETS; `hotcold hunt`, `near` and `things` in words). The
/// built daemon with a real gpsd.
@Suite(.offCooperativePool) struct GonePlacesTests {
    static let slurpee = "halans:ef1837ed0c", banana = "halans:d0577fb8cf"

    /// Every tracked target, from `targets` (the full list STATUS cuts).
    static func targets(_ c: LineClient) throws -> [[String: Any]] {
        try c.send(#"{"cmd":"targets"}"#)
        return try c.read(class: "TARGETS")["targets"] as? [[String: Any]] ?? []
    }

    static func id(_ t: [String: Any]) -> String? { (t["target"] as? [String: Any])?["id"] as? String }

    @Test func aDemolishedBigThingIsNeverRoamedAndMarkedWhereverItAppears() throws {
        let gpsd = try GPSDHarness.udp()
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
        defer { daemon.stop(); gpsd.terminate() }
        let c = try daemon.connect()
        try c.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: SyntheticTrack(start: (-30.302222, 153.118889), bearing: 0, speed: 0), udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try c.call(.status, expecting: StatusReply.self)).gps.lastFix == nil { usleep(50_000) }

        // Roaming 20 km: the Big Banana (standing) is tracked, the Slurpee on the spot is not.
        let roam = try c.call(.roam(RoamRequest(radius: 20_000, kinds: ["bigthing"])), expecting: TrackingReply.self)
        #expect(roam.gone == nil)
        var tracked: [[String: Any]] = []
        let until = Date().addingTimeInterval(20)
        while Date() < until {
            tracked = try Self.targets(c)
            if tracked.contains(where: { Self.id($0) == Self.banana }) { break }
            usleep(50_000)
        }
        #expect(tracked.contains { Self.id($0) == Self.banana }, "\(tracked.map(Self.id))")
        #expect(!tracked.contains { Self.id($0) == Self.slurpee }, "a roam never tracks a demolished thing: \(tracked.map(Self.id))")
        #expect(tracked.allSatisfy { $0["gone"] == nil })

        // Near: listed (it is here), saying why it is gone; a standing thing says nothing.
        let near = try c.call(.near(NearRequest(kinds: ["bigthing"], limit: 10)), result: .near, as: [NearbyPlace].self)
        let slurpee = try #require(near.first { $0.target.id == Self.slurpee }, "\(near.map(\.target.name))")
        #expect(slurpee.gone == "demolished" && slurpee.target.name == "The Big Slurpee")
        #expect(near.first { $0.target.id == Self.banana }?.gone == nil)
        let nearText = try Subprocess.run(Binaries.url("hotcold"), ["near", "--kind", "bigthing", "--socket", daemon.socketPath])
        let line = nearText.stdout.split(separator: "\n").first { $0.contains("The Big Slurpee") }
        #expect(line?.contains("gone: demolished") == true, "\(nearText.stdout)")

        let things = try Subprocess.run(Binaries.url("hotcold"), ["things", "--search", "slurpee", "--socket", daemon.socketPath])
        #expect(things.stdout.contains("The Big Slurpee (gone) — Coffs Harbour"), "\(things.stdout)")

        // Hunted by its id: it is hunted, and said to be gone — in the reply, STATUS and TARGETS.
        let hunt = try c.call(.hunt(HuntRequest(targets: [Self.slurpee, Self.banana])), expecting: TrackingReply.self)
        #expect(hunt.targets == 2 && hunt.gone == [.init(id: Self.slurpee, name: "The Big Slurpee", gone: "demolished")], "\(hunt)")
        var status = try c.call(.status, expecting: StatusReply.self)
        let until2 = Date().addingTimeInterval(20)
        while Date() < until2, status.targets.count < 2 { usleep(50_000); status = try c.call(.status, expecting: StatusReply.self) }
        #expect(status.targets.first { $0.target.id == Self.slurpee }?.gone == "demolished", "\(status.targets)")
        #expect(status.targets.first { $0.target.id == Self.banana }.map { $0.gone == nil } == true)
        #expect(try Self.targets(c).first { Self.id($0) == Self.slurpee }?["gone"] as? String == "demolished")
        let said = try Subprocess.run(Binaries.url("hotcold"), ["hunt", Self.slurpee, "--socket", daemon.socketPath])
        #expect(said.status == 0 && said.stdout.contains("The Big Slurpee (\(Self.slurpee)) is gone (demolished)"), "\(said.stdout) \(said.stderr)")
    }
}
