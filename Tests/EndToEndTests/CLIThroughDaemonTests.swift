import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// While hotcoldd runs, the CLI's changes go through its socket and it reads the daemon's file.
@Suite(.offCooperativePool) struct CLIThroughDaemonTests {
    let banana = "halans:d0577fb8cf"

    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args, environment: ["HOTCOLD_DB": "/nonexistent/should-not-be-used.sqlite"])
    }

    @Test func changesGoThroughTheDaemonAndTrackingFollowsCommands() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target", "-30.3,153.1,Start"])
        defer { daemon.stop() }
        let s = daemon.socketPath

        let seen = try hotcold(["seen", banana, "--socket", s])
        #expect(seen.status == 0, "\(seen.stderr)")
        let visits = try hotcold(["visits", "--socket", s, "--json"])
        #expect(visits.status == 0, "\(visits.stderr)")
        let list = (try JSONSerialization.jsonObject(with: Data(visits.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(list.count == 1)
        #expect((list.first?["place"] as? [String: Any])?["id"] as? String == banana)

        let rate = try hotcold(["rate", banana, "4", "--socket", s])
        #expect(rate.status == 0, "\(rate.stderr)")
        let bad = try hotcold(["rate", banana, "6", "--socket", s])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("0") && bad.stderr.contains("5"), "\(bad.stderr)")

        let hunt = try hotcold(["hunt", "--socket", s, banana])
        #expect(hunt.status == 0, "\(hunt.stderr)")
        #expect(hunt.stdout == "hotcoldd now hunts 1 target.\n", "\(hunt.stdout)")
        // With no fix, a roam tracks nothing yet, and says so rather than counting the planet.
        let roam = try hotcold(["roam", "20km", "--socket", s])
        #expect(roam.status == 0, "\(roam.stderr)")
        #expect(roam.stdout.hasPrefix("hotcoldd now roams within 20 km: no fix yet, so none of "), "\(roam.stdout)")
        let count = Int(roam.stdout.split(separator: " ").dropFirst(12).first ?? "") ?? 0
        #expect(count > 400 && roam.stdout.hasSuffix(" candidates is tracked until one comes.\n"), "\(roam.stdout)")

        // No fix yet: --here says so instead of guessing.
        let here = try hotcold(["add", "Car", "--here", "--socket", s])
        #expect(here.status != 0)
        #expect(here.stderr.contains("--here needs a running hotcoldd with a fix"), "\(here.stderr)")
        let status = try hotcold(["status", "--socket", s])
        #expect(status.stdout.contains("tracking: roam within 20 km"), "\(status.stdout)")
        #expect(daemon.process.isRunning)
    }

    @Test func unreachableDaemonIsAClearError() throws {
        let r = try hotcold(["watch", "--socket", "/tmp/no-such-hotcold.sock"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("cannot reach hotcoldd at /tmp/no-such-hotcold.sock"))
    }

    /// A store command sends its own request and nothing else: the daemon's `status` (for its
    /// last fix) is asked only by `--here`.
    @Test func aStoreCommandSendsOnlyItsRequest() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target", "-30.3,153.1,Start"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        func linesIn() throws -> Int { try #require(try c.call(.status, expecting: StatusReply.self).socket).linesIn }
        let before = try linesIn()
        let seen = try hotcold(["seen", banana, "--socket", daemon.socketPath])
        #expect(seen.status == 0, "\(seen.stderr)")
        // Our second status is the other line counted.
        #expect(try linesIn() - before == 2, "seen sent more than its store request")
        let here = try hotcold(["add", "Camp", "--here", "--socket", daemon.socketPath])
        #expect(here.status != 0 && here.stderr.contains("fix"), "no fix yet: \(here.stderr)")
    }
}
