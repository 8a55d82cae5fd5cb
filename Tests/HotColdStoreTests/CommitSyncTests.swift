import Foundation
@testable import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Every write is on the disk before it returns (a power cut keeps what was acknowledged),
/// commits made at the same moment share one sync, and reads sync nothing (flash wears).
@Suite(.offCooperativePool) struct CommitSyncTests {
    @Test func everyWriteIsSyncedAndConcurrentWritesShareSyncs() throws {
        let dir = try TemporaryDirectory("commit-sync")
        defer { dir.remove() }
        let store = try Store.open(path: dir.path("s.sqlite"))
        let before = store.commitSyncs
        try store.setSyncValue("k", "v")
        #expect(store.commitSyncs == before + 1, "one write, one sync")

        // Reads cost nothing.
        let afterWrite = store.commitSyncs
        for _ in 0..<50 { _ = try store.syncValue("k") }
        #expect(store.commitSyncs == afterWrite)

        // 8 writers × 5 changes at once, each on a thread of its own: every change is
        // acknowledged after a sync that began after its commit, and groups form while a sync
        // runs (fewer syncs than writes where syncs are slow enough to overlap).
        let writers = 8, each = 5
        let failures = Failures()
        let group = DispatchGroup()
        for w in 0..<writers {
            group.enter()
            Thread {
                for i in 0..<each {
                    do { try store.setSyncValue("w\(w)", "\(i)") } catch { failures.add("\(error)") }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")
        let syncs = store.commitSyncs - afterWrite
        #expect(syncs >= 1 && syncs <= writers * each, "\(syncs) syncs for \(writers * each) writes")
        for w in 0..<writers { #expect(try store.syncValue("w\(w)") == "\(each - 1)") }
        print("FIGURES commit sync: \(writers * each) concurrent writes took \(syncs) syncs")
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.withLock { items.append(s) } }
        var all: [String] { lock.withLock { items } }
    }
}
