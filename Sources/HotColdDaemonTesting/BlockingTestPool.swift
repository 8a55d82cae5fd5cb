import Foundation
import HotColdTestSupport
import Testing

/// Threads of their own for test bodies that block: a synchronous test waiting on a process,
/// a socket or a file holds its thread until it is done, and on Swift's shared cooperative
/// pool — one thread per core, two here — a few such tests stall every other test, the
/// in-process daemons' services included. Tests run here instead (``OffCooperativePool``), so
/// the pool stays free for what awaits, and as many blocking tests make progress at once as
/// this pool has threads.
///
/// `HOTCOLD_TEST_THREADS` sets the width (default four per core: most of a test's time is
/// spent waiting on a daemon, a browser or a broker, not computing).
public enum BlockingTestPool {
    public static let shared = ThreadTaskExecutor(
        name: "blocking-tests",
        threads: ProcessInfo.processInfo.environment["HOTCOLD_TEST_THREADS"].flatMap(Int.init)
            ?? 4 * ProcessInfo.processInfo.activeProcessorCount)

    /// Lanes for the run's longest chains — the browser suites, one chromium after another —
    /// beside the shared pool rather than in its queue: a serialized suite's next test would
    /// otherwise wait for a free thread behind every test queued meanwhile, a minute or more
    /// while the run is busiest, and the chain is what the whole run waits for.
    public static let lanes = ThreadTaskExecutor(name: "test-lanes", threads: 2)
}

/// Runs a suite's tests (or one test) on ``BlockingTestPool`` instead of the shared cooperative
/// pool: `@Suite(.offCooperativePool)`. Async tests are unchanged in meaning — they still
/// suspend at each `await` — but their synchronous stretches and every synchronous test hold
/// one of the pool's threads, never one of the two the whole run shares.
public struct OffCooperativePool: SuiteTrait, TestTrait, TestScoping {
    let executor: ThreadTaskExecutor
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OffCooperativePool {
    /// See ``OffCooperativePool``.
    public static var offCooperativePool: Self { Self(executor: BlockingTestPool.shared) }
    /// The same on ``BlockingTestPool/lanes``: for the few long serialized suites the run waits
    /// for (two at most, one lane each).
    public static var offCooperativePoolOwnLane: Self { Self(executor: BlockingTestPool.lanes) }
}
