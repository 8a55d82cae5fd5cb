import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Restarts are normal (in-car boxes boot with the ignition): a restart while parked at a
/// stored place is no new arrival, and a restart after leaving it says DEPARTED. Real daemon,
/// real gpsd, real database.
@Suite(.offCooperativePool, .serialized) struct RestartArrivalTests {
    typealias F = VisitFixtures

    /// First run: park at the windmill until ARRIVED, then the power goes (SIGKILL).
    func arriveThenLosePower(db: String, gpsd: GPSDHarness) throws -> DaemonProcess {
        let first = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        let c = try first.connect()
        try c.send(#"{"cmd":"watch","classes":["ARRIVED"]}"#)
        _ = try c.read(class: "WATCH")
        try c.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: F.parkedAtWindmill(), udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        let a = try c.read(class: "ARRIVED", timeout: 20)
        first.signal(SIGKILL)
        feeder.stop()
        _ = first.waitForExit(timeout: 30)
        #expect(F.targetID(a) == F.windmill.id)
        return first
    }

    @Test func restartWhileParkedInsideSendsNoSecondArrival() throws {
        let dir = try TemporaryDirectory("restart-parked"); defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let first = try arriveThenLosePower(db: db, gpsd: gpsd)
        defer { first.dir.remove() }
        #expect(try F.visits(db).count == 1)

        let second = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        defer { second.stop() }
        let c = try second.connect()
        try c.send(#"{"cmd":"watch"}"#)
        _ = try c.read(class: "WATCH")
        try c.waitUntilGPSDConnected()
        // The restored state shows before any fix.
        let before = try F.visitStatus(c)
        #expect(before["restored"] as? [String] == [F.windmill.id])
        #expect(before["at"] as? [String] == [F.windmill.id])

        // An hour later, still parked: 60 fixes inside the radius.
        let feeder = NMEAFeeder(track: F.parkedAtWindmill(startTime: Date(timeIntervalSince1970: 1_735_693_200)),
                                udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        let probe = try second.connect()
        #expect(eventually { ((try? F.counter(probe, "fixes_accepted")) ?? 0) >= 60 })
        feeder.stop()
        let seen = F.events(c, timeout: 1) { _ in false }
        let classes = seen.compactMap { $0["class"] as? String }
        #expect(classes.contains("PROXIMITY"), "\(classes)")
        #expect(!classes.contains("ARRIVED") && !classes.contains("DEPARTED"), "\(classes)")
        let status = try F.status(c)
        let target = (status["targets"] as? [[String: Any]])?.first
        #expect(target?["arrived"] as? Bool == true)
        #expect((status["visits"] as? [String: Any])?["at"] as? [String] == [F.windmill.id])
        try c.send(#"{"cmd":"poll"}"#)
        #expect(try c.read(class: "POLL")["at"] as? [String] == [F.windmill.id])
        second.stop()
        let visits = try F.visits(db)
        #expect(visits.count == 1, "\(visits)")
        #expect((visits.first?["visit"] as? [String: Any])?["departed_at"] == nil)
    }

    @Test func restartAfterLeavingSendsDepartedAndKeepsOneVisit() throws {
        let dir = try TemporaryDirectory("restart-left"); defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let first = try arriveThenLosePower(db: db, gpsd: gpsd)
        defer { first.dir.remove() }

        // The car drove away while the box was off; it boots 1 km from the windmill.
        let second = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        defer { second.stop() }
        let c = try second.connect()
        try c.send(#"{"cmd":"watch"}"#)
        _ = try c.read(class: "WATCH")
        try c.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: F.parkedAwayFromWindmill(startTime: Date(timeIntervalSince1970: 1_735_693_200)),
                                udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        let seen = F.events(c, timeout: 30) { $0["class"] as? String == "DEPARTED" }
        feeder.stop()
        let classes = seen.compactMap { $0["class"] as? String }
        #expect(classes.last == "DEPARTED", "\(classes)")
        #expect(!classes.contains("ARRIVED"))
        #expect(seen.last.flatMap(F.targetID) == F.windmill.id)
        // The departure is stored with the visit before DEPARTED leaves.
        #expect(try F.visitStatus(c)["at"] as? [String] == [])
        second.stop()
        let visits = try F.visits(db)
        #expect(visits.count == 1, "\(visits)")
        let departed = (visits.first?["visit"] as? [String: Any])?["departed_at"] as? String
        #expect(departed?.hasPrefix("2025-01-01T01:00:") == true, "\(visits)")

        // A third start restores nothing: the device is at no stored place.
        let third = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        defer { third.stop() }
        let c3 = try third.connect()
        #expect(try F.visitStatus(c3)["restored"] as? [String] == [])
    }
}
