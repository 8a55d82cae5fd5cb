import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Power cuts at random moments of a real drive (Tests/PowerCut/power_cut.py): hotcoldd's
/// database, state and log on lazyfs (Tests/PowerCut/lazyfs.py, a FUSE pass-through that drops
/// every write not fsynced), a real gpsd, real clients on the socket. After each cut and
/// restart: every acknowledged change and every announced visit is there, no second ARRIVED
/// while parked, no event number reused, every lost log line announced by a GAP, the hunt
/// restored. The script prints a JSON summary and lists each violation.
@Suite("power cuts", .offCooperativePool)
struct PowerCutTests {
    static var canMount: Bool {
        getuid() == 0
            && FileManager.default.fileExists(atPath: "/dev/fuse")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/fusepy.py")
            && GPSDHarness.gpsdAvailable
    }

    @Test("12 random power cuts of a drive: nothing acknowledged lost, nothing repeated, every hole announced",
          .enabled(if: canMount), .timeLimit(.minutes(10)))
    func randomCuts() async throws {
        let script = TestData.repo("Tests/PowerCut/power_cut.py")
        let bin = Binaries.directory.path
        // On a thread of its own: the run takes a minute or two and must not hold a pool thread.
        let r = try await Self.onOwnThread {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"),
                               [script.path, "--cuts", "12", "--measure-seconds", "0", "--binaries", bin],
                               currentDirectory: TestData.repoRoot)
        }
        #expect(r.status == 0, "\(r.stderr.suffix(6000))\n\(r.stdout.suffix(2000))")
    }

    @Test("lazyfs keeps what was synced and drops the rest (SQLite WAL, renames, plain files)",
          .enabled(if: canMount), .timeLimit(.minutes(5)))
    func lazyfsModel() async throws {
        let script = TestData.repo("Tests/PowerCut/lazyfs.py")
        let r = try await Self.onOwnThread {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--self-test"])
        }
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr.suffix(3000))")
    }

    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { k in
            Thread { k.resume(with: Result { try work() }) }.start()
        }
    }
}
