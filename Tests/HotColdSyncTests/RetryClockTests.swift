import Foundation
import Synchronization
import HotColdStore
@testable import HotColdSync
import HotColdDaemonTesting
import Testing

/// A retry's wait is a duration from the failure's arrival, on a clock the wall clock cannot
/// move: the box's clock set 5 years either way after a `Retry-After: 60` neither sends early
/// nor parks the outbox for years, and a time read back from the store is trusted no further
/// than the longest wait the policy sets.
@Suite(.offCooperativePool, .serialized) struct RetryClockTests {
    /// The wall clock (moved by the test) and a clock that never jumps (moved only by sleeps).
    final class Clocks: Sendable {
        let state = Mutex((wallOffset: 0.0, elapsed: 1000.0, slept: [Double]()))
        var wall: Date { Date().addingTimeInterval(state.withLock { $0.wallOffset }) }
        func jumpWall(to offset: Double) { state.withLock { $0.wallOffset = offset } }
        func pass(_ seconds: Double) { state.withLock { $0.elapsed += seconds } }
        var slept: [Double] { state.withLock { $0.slept } }
    }

    static let fiveYears = 5 * 365 * 86_400.0

    func syncer(_ f: SyncFixture, _ server: ReferenceServer, _ clocks: Clocks, maxWait: Double,
                retry: RetryPolicy = SyncFixture.fastRetry) -> Syncer {
        Syncer(store: f.store, client: try! APIClient(baseURL: server.url, token: nil, timeout: 5, allowHTTPLoopback: true),
               options: .init(retry: retry, maxWait: maxWait, honourBackoff: true, user: "tester"),
               now: { clocks.wall },
               elapsed: { clocks.state.withLock { $0.elapsed } },
               sleep: { s in clocks.state.withLock { $0.elapsed += s; $0.slept.append(s) } })
    }

    /// POSTs the server saw, those a fault answered included.
    func posts(_ server: ReferenceServer) async throws -> Int {
        (try await server.state()["requests"] as? [[Any]] ?? []).filter { $0.first as? String == "POST" }.count
    }

    @Test(arguments: [fiveYears, -fiveYears])
    func retryAfterSixtyHoldsAcrossAWallClockJump(jump: Double) async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let clocks = Clocks()
        let syncer = syncer(f, server, clocks, maxWait: 40)
        _ = await syncer.sync()
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4)
        try await server.faults([["action": "status", "status": 429, "retry_after": "60", "method": "POST"]])

        let first = await syncer.drainOutbox()
        #expect(first.pending == 1 && first.nextAttemptIn == 60, "\(first.summary)")
        #expect(first.summary.contains("next attempt in 60 s"))
        #expect(try await posts(server) == 1)

        // The box's clock is set 5 years away; 10 s pass on the clock that does not jump.
        clocks.jumpWall(to: jump)
        clocks.pass(10)
        let early = await syncer.drainOutbox()
        #expect(try await posts(server) == 1, "nothing sent before the server's 60 s")
        #expect(early.pending == 1 && early.nextAttemptIn == 50, "\(early.summary)")

        // Back again, and 20 s more: the 30 s left fit this sync's 40 s, so it waits them —
        // 60 s after the 429 arrived, whatever the wall clock said meanwhile — and delivers.
        clocks.jumpWall(to: 0)
        clocks.pass(20)
        let last = await syncer.drainOutbox()
        #expect(clocks.slept == [30], "\(clocks.slept)")
        #expect(last.delivered.count == 1 && last.pending == 0, "\(last.summary)")
        #expect(try await posts(server) == 2)
    }

    /// A later process has only the store's wall-clock times: one written while the clock was
    /// 5 years ahead is trusted no further than the longest Retry-After honoured.
    @Test func aStoredTimeYearsAwayIsBoundedByTheLongestWait() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let clocks = Clocks()
        let retry = RetryPolicy(base: 0.05, cap: 0.2, maxRetryAfter: 120, jitter: { 0.5 })
        _ = await syncer(f, server, clocks, maxWait: 1, retry: retry).sync()
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4)
        try await server.faults([["action": "status", "status": 429, "retry_after": "60", "method": "POST"]])
        clocks.jumpWall(to: Self.fiveYears)
        _ = await syncer(f, server, clocks, maxWait: 1, retry: retry).drainOutbox()
        let stored = try #require(try f.store.outbox().first?.notBefore)
        #expect(stored.timeIntervalSinceNow > Self.fiveYears - 3600, "written with the wrong clock")

        clocks.jumpWall(to: 0)     // the clock is corrected, and hotcold-sync restarted
        let restarted = await syncer(f, server, clocks, maxWait: 1, retry: retry).drainOutbox()
        #expect(restarted.pending == 1 && (restarted.nextAttemptIn ?? .infinity) <= 120, "\(restarted.summary)")
        #expect(try await posts(server) == 1)
        // Waiting those 120 s delivers it.
        let patient = syncer(f, server, clocks, maxWait: 200, retry: retry)
        let done = await patient.drainOutbox()
        #expect(done.delivered.count == 1, "\(done.summary)")
        #expect(clocks.slept.count == 1 && clocks.slept[0] <= 120, "\(clocks.slept)")
    }

    /// A Retry-After given as a date becomes seconds at once, against the reply's own Date
    /// header: our clock 5 years off at that moment changes nothing.
    @Test(arguments: [fiveYears, -fiveYears])
    func aRetryAfterDateIsADurationFromTheServersOwnDate(jump: Double) async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let clocks = Clocks()
        let syncer = syncer(f, server, clocks, maxWait: 1)
        _ = await syncer.sync()
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = format.string(from: Date().addingTimeInterval(60))
        try await server.faults([["action": "status", "status": 429, "retry_after": date, "method": "POST"]])
        clocks.jumpWall(to: jump)
        let r = await syncer.drainOutbox()
        // Whole seconds on both dates, and the server's may have ticked since ours was made.
        #expect(r.pending == 1 && (58...61).contains(r.nextAttemptIn ?? -1), "\(r.summary)")
        #expect(try await posts(server) == 1)
    }

    @Test func retryAfterReadsADateAgainstTheServersDate() {
        let server = "Sun, 06 Nov 1994 08:48:37 GMT"
        let wrong = Date(timeIntervalSince1970: 784_111_717 + Self.fiveYears)
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", serverDate: server, now: wrong) == 60)
        // Without a readable Date header, our own clock is all there is.
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", serverDate: "soon",
                                       now: Date(timeIntervalSince1970: 784_111_717)) == 60)
        // Every wait is bounded, even one the server spells as infinity.
        let p = RetryPolicy(maxRetryAfter: 3600)
        #expect(p.clampRetryAfter(.infinity) == 3600 && p.clampRetryAfter(-.infinity) == 0 && p.clampRetryAfter(.nan) == 0)
    }
}
