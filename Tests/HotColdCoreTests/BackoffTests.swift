import HotColdCore
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct BackoffTests {
    @Test func doublesToTheCapWithEqualJitter() {
        let b = Backoff(initial: .seconds(2), cap: .seconds(60))
        #expect((1...7).map { b.delay(afterFailures: $0) } == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        #expect(b.delay(afterFailures: 3, jitter: 0) == .seconds(4))
        #expect(b.delay(afterFailures: 3, jitter: 1) == .seconds(8))
        #expect(b.delay(afterFailures: 3, jitter: 0.5) == .seconds(6))
        // Jitter outside 0…1 (or NaN) is clamped, never a longer or negative wait.
        #expect(b.delay(afterFailures: 3, jitter: 7) == .seconds(8))
        #expect(b.delay(afterFailures: 3, jitter: -1) == .seconds(4))
        #expect(b.delay(afterFailures: 3, jitter: .nan) == .seconds(4))
    }

    @Test func anyFailureCountIsSafe() {
        let b = Backoff(initial: .milliseconds(100), cap: .seconds(1))
        #expect(b.delay(afterFailures: 0) == .milliseconds(100))
        #expect(b.delay(afterFailures: -5) == .milliseconds(100))
        #expect(b.delay(afterFailures: .max) == .seconds(1))
        // A cap below the start, or a negative start, is clamped rather than trapped on.
        #expect(Backoff(initial: .seconds(5), cap: .seconds(1)).delay(afterFailures: 9) == .seconds(5))
        #expect(Backoff(initial: .seconds(-1), cap: .seconds(1)).delay(afterFailures: 9) == .zero)
    }

    @Test func countsFailuresUntilReset() {
        var b = Backoff.gpsdDefault
        _ = b.nextDelay(); _ = b.nextDelay()
        #expect(b.failures == 2 && b.nextDelay() == .milliseconds(400))
        b.reset()
        #expect(b.failures == 0 && b.nextDelay() == .milliseconds(100))
    }
}
