import Foundation
import Glibc
import HotColdConfig
@testable import HotColdDaemon
@testable import HotColdProtocol
import HotColdDaemonTesting
import HotColdTestSupport
import Synchronization
import Testing

/// The daemon's state directory as someone else might have left it: links planted where the
/// daemon writes, a FIFO, a huge file, another user's file or a link where it reads at start,
/// a directory others can write in. Real files, the daemon built in process.
@Suite(.offCooperativePool) struct StateFileTrustTests {
    /// A root-owned 0600 file that a link in the state directory points at.
    static func victim(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("victim")
        try "root's own, untouched\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    static func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    static func status(_ daemon: InProcessDaemon) async throws -> StatusReply {
        try WireCoding.decode(StatusReply.self, from: try await daemon.ask(.status))
    }

    /// Waits (up to 30 s) until `condition` holds; polls, never a fixed sleep.
    static func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out waiting for \(what)"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: - Writes never follow a link

    @Test func aLinkPlantedAtATemporaryIsReplacedNeverWrittenThrough() async throws {
        let dir = try TemporaryDirectory("state-links")
        defer { dir.remove() }
        let victim = try Self.victim(dir)
        let state = dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let names = ["event-seq", "tracking.json", "clean-stop", "unclean-stop.json"]
        for name in names { #expect(symlink(victim, "\(state)/\(name).tmp") == 0) }

        // At start (event-seq), on `hunt` (tracking.json), at a clean stop (clean-stop).
        let first = try InProcessDaemon(directory: dir)
        #expect(try await first.ask(.hunt(HuntRequest(targets: ["-30.2,153.1,Alpha"]))).contains(#""class":"TRACKING""#))
        await first.stop(clean: true, keep: true)
        // A start after an unclean stop writes its report (unclean-stop.json).
        for name in names { _ = symlink(victim, "\(state)/\(name).tmp") }
        let second = try InProcessDaemon(directory: dir)
        await second.stop(keep: true)
        for name in names { _ = symlink(victim, "\(state)/\(name).tmp") }
        let third = try InProcessDaemon(directory: dir)
        #expect(try await Self.status(third).uncleanStop != nil)
        await third.stop(clean: true, keep: true)

        #expect(Self.contents(victim) == "root's own, untouched\n")
        for name in names { #expect(Self.isRegularFile("\(state)/\(name)"), "\(name) is a file of the daemon's own") }
        #expect(Self.contents(state + "/tracking.json").contains("Alpha"))
    }

    // MARK: - The directory is checked at start

    @Test func aStateDirectoryOthersCouldWriteInIsRefusedWithTheFix() async throws {
        let dir = try TemporaryDirectory("state-dir")
        defer { dir.remove() }
        let shared = dir.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        let refusal = try #require(try await refusalOfStart { c in c.store.database = shared + "/hc.sqlite" })
        #expect(refusal.directory == shared)
        #expect(refusal.description.contains("\(shared), the directory of the database \(shared)/hc.sqlite"), "\(refusal)")
        #expect(refusal.description.contains("writable by others (mode 1777"), "\(refusal)")
        #expect(refusal.description.contains("a directory of its own"), "\(refusal)")
        // A shared directory like /tmp is not told to close itself; a group-writable one is.
        #expect(!refusal.description.contains("chmod"))
        chmod(shared, 0o770)
        let groupWritable = try #require(try await refusalOfStart { c in c.store.database = shared + "/hc.sqlite" })
        #expect(groupWritable.description.contains("mode 770") && groupWritable.description.contains("chmod go-w \(shared)"), "\(groupWritable)")
        // Nothing was made in it before the refusal.
        #expect((try FileManager.default.contentsOfDirectory(atPath: shared)).isEmpty)

        // Another user's directory; a link to one others can write in (a link on the way is the
        // administrator's, as systemd's DynamicUser= makes one: where it leads is checked).
        let stranger = UnixAccounts.unusedUID()
        let theirs = dir.path("theirs")
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
        chmod(theirs, 0o700)
        #expect(chown(theirs, stranger, stranger) == 0)
        let wrongOwner = try #require(try await refusalOfStart { c in c.store.database = theirs + "/hc.sqlite" })
        #expect(wrongOwner.description.contains("belongs to uid \(stranger)") && wrongOwner.description.contains("mode 700"), "\(wrongOwner)")
        let linked = dir.path("linked")
        #expect(symlink(shared, linked) == 0)
        let link = try #require(try await refusalOfStart { c in c.store.database = linked + "/hc.sqlite" })
        #expect(link.description.contains("\(linked), the directory") && link.description.contains("writable by others (mode 770"), "\(link)")

        // A missing one is made, private.
        let fresh = dir.path("fresh/state")
        let daemon = try InProcessDaemon(directory: dir) { c in c.store.database = fresh + "/hc.sqlite" }
        var st = stat()
        #expect(lstat(fresh, &st) == 0 && st.st_mode & 0o777 == 0o750 && st.st_uid == geteuid())
        await daemon.stop(keep: true)
    }

    /// What starting the daemon with `configure` is refused for (nil: it started, and is stopped).
    func refusalOfStart(_ configure: @escaping (inout Configuration) -> Void) async throws -> StateDirectory.Refusal? {
        let dir = try TemporaryDirectory("state-dir-run")
        defer { dir.remove() }
        do {
            let daemon = try InProcessDaemon(directory: dir, configure)
            await daemon.stop()
            return nil
        } catch let refusal as StateDirectory.Refusal {
            return refusal
        }
    }

    // MARK: - Reads at start never hang and never forget in silence

    @Test func aFIFOWhereStateIsReadNeitherHangsTheStartNorGoesUnsaid() async throws {
        let dir = try TemporaryDirectory("state-fifo")
        defer { dir.remove() }
        let state = dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let fifos = ["tracking.json", "unclean-stop.json", "event-seq"].map { "\(state)/\($0)" }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0) }
        let capture = LogCapture()

        let started = ContinuousClock.now
        let outcome = Mutex<Result<InProcessDaemon, any Error>?>(nil)
        Thread {
            let result = Result { try InProcessDaemon(directory: dir, logger: capture.logger) }
            outcome.withLock { $0 = result }
        }.start()
        // Before: the start blocked in open(2) until something wrote to the FIFO. Each one is
        // opened for writing and closed after the deadline, so a hung start ends and the test
        // reports it instead of hanging too.
        let deadline = ContinuousClock.now + .seconds(20)
        var hung = false
        while outcome.withLock({ $0 == nil }) {
            if ContinuousClock.now > deadline {
                hung = true
                for fifo in fifos {
                    let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                    if fd >= 0 { close(fd) }
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!hung, "the start waited on a FIFO")
        let daemon = try #require(outcome.withLock { $0 }).get()
        // It greets, promptly.
        let greeting = try await InProcessDaemon.onThread { try LineClient(path: daemon.configuration.socket.path).readLine(timeout: 10) }
        #expect(greeting?.contains(#""class":"VERSION""#) == true)
        #expect(ContinuousClock.now - started < .seconds(15))

        let errors = capture.messages.withLock { $0.filter { $0.0 == .error }.map(\.1) }
        for fifo in fifos {
            #expect(errors.contains { $0.contains(fifo) && $0.contains("FIFO") && $0.contains("set aside as \(fifo).unusable") },
                    "\(fifo) in \(errors)")
            #expect(TrustedFileProbe.kind(fifo + ".unusable") == S_IFIFO)
        }
        #expect(errors.contains { $0.hasPrefix("the kept hunt was not restored: \(state)/tracking.json") }, "\(errors)")
        // It tracks what the configuration says, and numbers events well above anything before.
        let status = try await Self.status(daemon)
        #expect(status.tracking.candidates == 1, "\(status.tracking)")
        #expect(daemon.parts.outputs.sequence.peekNext > 1_000_000)
        await daemon.stop()
    }

    /// A kept hunt of three targets in `dir`, as a first run leaves it.
    static func keptHunt(_ dir: TemporaryDirectory) async throws -> String {
        let first = try InProcessDaemon(directory: dir)
        let hunt = HuntRequest(targets: ["-30.2,153.1,Alpha", "-30.3,153.2,Bravo", "-30.4,153.3,Charlie"])
        #expect(try await first.ask(.hunt(hunt)).contains(#""class":"TRACKING""#))
        await first.stop(clean: true, keep: true)
        return dir.path("state/tracking.json")
    }

    @Test(arguments: ["huge", "wrong owner", "link", "group-writable"])
    func anUnusableKeptHuntIsSetAsideAndSaid(_ what: String) async throws {
        let dir = try TemporaryDirectory("state-kept")
        defer { dir.remove() }
        let kept = try await Self.keptHunt(dir)
        let expected: String
        switch what {
        case "huge":
            // 100 MB, sparse: the bound is on the size, read or not.
            #expect(truncate(kept, 100 << 20) == 0)
            expected = "104857600 bytes, more than the"
        case "wrong owner":
            let stranger = UnixAccounts.unusedUID()
            #expect(chown(kept, stranger, stranger) == 0)
            expected = "owned by uid \(stranger)"
        case "link":
            let real = dir.path("elsewhere.json")
            #expect(rename(kept, real) == 0 && symlink(real, kept) == 0)
            expected = "a symbolic link, not followed"
        default:
            chmod(kept, 0o664)
            expected = "writable by others (mode 664)"
        }
        let capture = LogCapture()
        let daemon = try InProcessDaemon(directory: dir, logger: capture.logger)
        let errors = capture.messages.withLock { $0.filter { $0.0 == .error }.map(\.1) }
        #expect(errors.contains {
            $0.hasPrefix("the kept hunt was not restored: \(kept): \(expected)")
                && $0.contains("set aside as \(kept).unusable") && $0.contains("the configuration's [tracking]")
        }, "\(errors)")
        #expect(TrustedFileProbe.kind(kept) == nil && TrustedFileProbe.kind(kept + ".unusable") != nil)
        let status = try await Self.status(daemon)
        #expect(status.tracking.candidates == 1, "\(status.tracking)")
        await daemon.stop()
    }

    @Test func anUnusableUncleanStopReportIsSetAsideAndSaid() async throws {
        let dir = try TemporaryDirectory("state-report")
        defer { dir.remove() }
        let first = try InProcessDaemon(directory: dir)
        await first.stop(keep: true)            // unclean: the next start writes the report
        let second = try InProcessDaemon(directory: dir)
        #expect(try await Self.status(second).uncleanStop != nil)
        await second.stop(clean: true, keep: true)
        let report = dir.path("state/unclean-stop.json")
        let stranger = UnixAccounts.unusedUID()
        #expect(chown(report, stranger, stranger) == 0)

        let capture = LogCapture()
        let third = try InProcessDaemon(directory: dir, logger: capture.logger)
        let errors = capture.messages.withLock { $0.filter { $0.0 == .error }.map(\.1) }
        #expect(errors.contains { $0.contains("\(report): owned by uid \(stranger)") && $0.contains("set aside") }, "\(errors)")
        #expect(try await Self.status(third).uncleanStop == nil)
        await third.stop()
    }
}

/// What is at a path, links not followed (nil: nothing).
enum TrustedFileProbe {
    static func kind(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }
}
