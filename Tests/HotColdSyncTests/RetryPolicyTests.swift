import Foundation
import HotColdSync
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct RetryPolicyTests {
    @Test func exponentialCappedAndJittered() {
        let low = RetryPolicy(base: 2, cap: 60, jitter: { 0 })
        #expect((1...7).map { low.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 30, 30])
        let high = RetryPolicy(base: 2, cap: 60, jitter: { 1 })
        #expect((1...7).map { high.delay(afterFailures: $0) } == [2, 4, 8, 16, 32, 60, 60])
        let mid = RetryPolicy(base: 2, cap: 60, jitter: { 0.5 })
        #expect(mid.delay(afterFailures: 1000) == 45)
    }

    @Test func retryAfterWinsAndIsClamped() {
        let p = RetryPolicy(base: 2, cap: 60, maxRetryAfter: 3600, jitter: { 0 })
        #expect(p.delay(afterFailures: 1, retryAfter: 120) == 120)
        #expect(p.delay(afterFailures: 1, retryAfter: 1e9) == 3600)
        #expect(RetryPolicy.retryAfter("7") == 7)
        #expect(RetryPolicy.retryAfter(nil) == nil)
        #expect(RetryPolicy.retryAfter("soon") == nil)
        let now = Date(timeIntervalSince1970: 784_111_717)   // Sun, 06 Nov 1994 08:48:37 GMT
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 60)
    }
}
