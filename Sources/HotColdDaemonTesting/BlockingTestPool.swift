import Foundation
import HotColdTestSupport
import Synchronization
import Testing

/// Threads of their own for test bodies that block: a synchronous test waiting on a process,
/// a socket or a file holds its thread until it is done, and on Swift's shared cooperative
/// pool — one thread per core, two here — a few such tests stall every other test, the
/// in-process daemons' services included. Tests run here instead (``OffCooperativePool``), so
/// the cooperative pool stays free for what awaits.
///
/// How many tests run here at once is not the number of threads: a test that awaits gives its
/// thread back, and its resumption must not queue behind whole blocking tests waiting to start
/// (an async test's next step would then wait minutes on a busy run). So the threads are
/// plenty, and ``slots`` bounds the tests running at once: `HOTCOLD_TEST_THREADS` of them
/// (default six per core: most of a test's time is spent waiting on a daemon, a browser or a
/// broker, not computing).
public enum BlockingTestPool {
    public static let slots = TestSlots(
        ProcessInfo.processInfo.environment["HOTCOLD_TEST_THREADS"].flatMap(Int.init)
            ?? 6 * ProcessInfo.processInfo.activeProcessorCount)

    /// Every running test holds a slot (and at most one thread while it blocks); the rest are
    /// for resumptions, which never wait for a slot.
    public static let shared = ThreadTaskExecutor(name: "blocking-tests", threads: 4 * slots.count)

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

    /// Lanes hold no slot: they are the run's critical chains, two at most.
    let slotted: Bool

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A slot per running test case (a suite's scope, with no case, holds none: its tests
        // would wait on it).
        let slot = slotted && testCase != nil
        if slot { await BlockingTestPool.slots.acquire() }
        defer { if slot { BlockingTestPool.slots.release() } }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OffCooperativePool {
    /// See ``OffCooperativePool``.
    public static var offCooperativePool: Self { Self(executor: BlockingTestPool.shared, slotted: true) }
    /// The same on ``BlockingTestPool/lanes``: for the few long serialized suites the run waits
    /// for (two at most, one lane each).
    public static var offCooperativePoolOwnLane: Self { Self(executor: BlockingTestPool.lanes, slotted: false) }
}

/// A counting semaphore for async code: `await acquire()` suspends (holding no thread) until one
/// of `count` slots is free; `release()` hands it to the longest waiter.
public final class TestSlots: Sendable {
    public let count: Int
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    public init(_ count: Int) {
        self.count = max(1, count)
        state = Mutex((max(1, count), []))
    }

    public func acquire() async {
        await withCheckedContinuation { (k: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.free > 0 { s.free -= 1; return true }
                s.waiting.append(k)
                return false
            }
            if now { k.resume() }
        }
    }

    public func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiting.isEmpty { s.free += 1; return nil }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
