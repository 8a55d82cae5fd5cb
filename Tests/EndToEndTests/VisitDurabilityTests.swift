import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A busy or full database neither stalls fixes nor loses a visit: the real daemon, real gpsd,
/// a database locked by another process (`sqlite3` in `BEGIN EXCLUSIVE`) or on a full tmpfs.
@Suite(.offCooperativePool, .serialized) struct VisitDurabilityTests {
    typealias F = VisitFixtures

    /// Whether this machine lets tests mount a tmpfs (root in a VM or a privileged container).
    static let canMountTmpfs: Bool = {
        guard let dir = try? TemporaryDirectory("tmpfs-probe") else { return false }
        defer { dir.remove() }
        let r = try? Subprocess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=64k,mode=0750", "tmpfs", dir.url.path])
        guard r?.status == 0 else { return false }
        _ = try? Subprocess.run(URL(fileURLWithPath: "/bin/umount"), [dir.url.path])
        return true
    }()

    /// Drives through the windmill while `blocked` holds, then runs `unblock`, and checks that
    /// fixes and PROXIMITY flowed meanwhile and that ARRIVED and DEPARTED came out after, with
    /// exactly one visit stored.
    func driveThroughWhileBlocked(daemon: DaemonProcess, db: String, gpsd: GPSDHarness,
                                  expectError: String, unblock: () throws -> Void) throws {
        let c = try daemon.connect()
        try c.send(#"{"cmd":"watch"}"#)
        _ = try c.read(class: "WATCH")
        let probe = try daemon.connect()
        let feeder = NMEAFeeder(track: F.throughWindmill, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        // 500 m to the windmill and 2 km past it: the arrival is held, the tiers keep changing.
        let during = F.events(c, timeout: 60) { e in
            e["class"] as? String == "PROXIMITY" && (e["distance_m"] as? Double ?? 0) > 2000
        }
        let held = try F.visitStatus(probe)
        let fixesThen = try F.counter(probe, "fixes_accepted")
        #expect((held["pending"] as? Int ?? 0) >= 1, "\(held)")
        #expect((held["held_events"] as? Int ?? 0) >= 1, "\(held)")
        #expect(eventually(.seconds(30)) { ((try? F.visitStatus(probe))?["retries"] as? Int ?? 0) >= 1 })
        let failing = try F.visitStatus(probe)
        #expect((failing["error"] as? String)?.contains(expectError) == true, "\(failing)")
        // Fixes kept being processed while the database was unusable.
        #expect(eventually { ((try? F.counter(probe, "fixes_accepted")) ?? 0) > fixesThen + 20 })
        let classes = during.compactMap { $0["class"] as? String }
        #expect(!classes.contains("ARRIVED") && !classes.contains("DEPARTED"), "\(classes)")
        let tiers = Set(during.compactMap { $0["tier_name"] as? String })
        #expect(tiers.isSuperset(of: ["burning", "hot", "warm", "mild", "cool", "cold"]), "\(tiers)")

        try unblock()
        let after = F.events(c, timeout: 60) { $0["class"] as? String == "DEPARTED" }
        let passages = after.filter { ["ARRIVED", "DEPARTED"].contains($0["class"] as? String ?? "") }
        #expect(passages.compactMap { $0["class"] as? String } == ["ARRIVED", "DEPARTED"], "\(after.suffix(5))")
        #expect(passages.allSatisfy { F.targetID($0) == F.windmill.id })
        // Numbered as they left: after every PROXIMITY that overtook them.
        let lastDuring = during.compactMap { $0["seq"] as? Int }.max() ?? .max
        #expect(passages.allSatisfy { ($0["seq"] as? Int ?? 0) > lastDuring })
        let recovered = try F.visitStatus(probe)
        #expect(recovered["pending"] as? Int == 0 && recovered["error"] == nil, "\(recovered)")
        #expect(recovered["stored"] as? Int == 2)
        // Reported once when it began and once when it ended, not per retry.
        #expect(daemon.stderr.components(separatedBy: "visits: cannot store").count == 2, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("visits: the database takes writes again"))
        feeder.stop()
        daemon.stop()
        let visits = try F.visits(db)
        #expect(visits.count == 1, "\(visits)")
        #expect((visits.first?["visit"] as? [String: Any])?["departed_at"] != nil)
    }

    @Test func aDatabaseLockedByAnotherProcessHoldsOnlyTheArrival() throws {
        try #require(SQLiteLockHolder.available, "sqlite3 is not installed (scripts/setup installs it)")
        let dir = try TemporaryDirectory("visit-locked"); defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        defer { daemon.stop() }
        try daemon.connect().waitUntilGPSDConnected()
        let lock = try SQLiteLockHolder(database: db)
        defer { lock.release() }
        try driveThroughWhileBlocked(daemon: daemon, db: db, gpsd: gpsd, expectError: "locked") {
            lock.release()
        }
    }

    @Test(.enabled(if: VisitDurabilityTests.canMountTmpfs,
                   "needs `mount -t tmpfs` (root with CAP_SYS_ADMIN); this machine refused it"))
    func aFullFilesystemHoldsOnlyTheArrival() throws {
        let dir = try TemporaryDirectory("visit-full"); defer { dir.remove() }
        let fs = dir.path("fs")
        try FileManager.default.createDirectory(atPath: fs, withIntermediateDirectories: true)
        let mount = try Subprocess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=8m,mode=0750", "tmpfs", fs])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = try? Subprocess.run(URL(fileURLWithPath: "/bin/umount"), ["-l", fs]) }
        let db = fs + "/hc.sqlite"
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        // A first run creates the database (with the bundled catalogue); a clean stop
        // checkpoints and removes the WAL, so the next write must grow the files again.
        let setup = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        try setup.connect().waitUntilGPSDConnected()
        setup.stop()

        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--target", F.windmill.id])
        defer { daemon.stop() }
        try daemon.connect().waitUntilGPSDConnected()
        // Fill the filesystem to the last byte.
        let filler = fs + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let block = [UInt8](repeating: 0xAB, count: 4096)
        var size = block.count
        while size > 0 {
            if write(fd, block, size) < 0 { size /= 2 }
        }
        close(fd)
        try driveThroughWhileBlocked(daemon: daemon, db: db, gpsd: gpsd, expectError: "full") {
            unlink(filler)
        }
    }
}
