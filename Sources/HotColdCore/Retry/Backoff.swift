/// Capped exponential backoff, the one rule hotcold waits by between attempts: gpsd reconnects,
/// the MQTT bridge's daemon reconnects, and web-sync retries (``delay(afterFailures:jitter:)``
/// through HotColdSync's `RetryPolicy`, which adds the server's Retry-After).
///
/// The n-th consecutive failure waits `min(cap, initial · 2^(n-1))`. Pure arithmetic: callers
/// sleep, and bring their own randomness for jitter.
///
/// The gpsd default (100 ms doubling, capped at 1 s) gives up to one refused loopback connect per
/// second during an outage, and bounds the time from "gpsd listening again" to "connected" by
/// the cap: that leaves about 2 s of the 3 s budget for gpsd's start-up and the receiver's
/// next 1 Hz report.
///
/// ```swift
/// var b = Backoff.gpsdDefault
/// b.nextDelay()   // 0.1 s
/// b.nextDelay()   // 0.2 s
/// b.reset()       // after a successful connection
/// Backoff(initial: .seconds(2), cap: .seconds(60)).delay(afterFailures: 3, jitter: 0.5)   // 6 s
/// ```
public struct Backoff: Sendable, Equatable {
    public let initial: Duration
    public let cap: Duration
    /// Consecutive failures counted by ``nextDelay()`` since the last ``reset()``.
    public private(set) var failures = 0

    /// A negative `initial` counts as zero, and a `cap` below `initial` as `initial`.
    public init(initial: Duration, cap: Duration) {
        self.initial = max(initial, .zero)
        self.cap = max(cap, self.initial)
    }

    /// 100 ms, 200 ms, 400 ms, 800 ms, then 1 s for as long as gpsd stays away.
    public static let gpsdDefault = Backoff(initial: .milliseconds(100), cap: .seconds(1))

    /// The wait after the `failures`-th consecutive failure (1-based; less than 1 counts as 1).
    public func delay(afterFailures failures: Int) -> Duration {
        var d = initial
        var doublings = max(failures, 1) - 1
        // Stops at the cap, so never more than a few dozen doublings and never an overflow.
        while doublings > 0, d > .zero, d < cap {
            d = d * 2
            doublings -= 1
        }
        return min(d, cap)
    }

    /// The same wait with "equal jitter": half fixed, half scaled by `jitter` (0…1, clamped), so
    /// many clients coming back online at once do not retry in step.
    public func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        let half = delay(afterFailures: failures) / 2
        let j = jitter.isNaN ? 0 : min(max(jitter, 0), 1)
        return half + half * j
    }

    /// The delay before the next attempt; each call doubles the following one, up to `cap`.
    public mutating func nextDelay() -> Duration {
        if failures < Int.max { failures += 1 }
        return delay(afterFailures: failures)
    }

    /// Back to `initial`, after an attempt succeeded.
    public mutating func reset() { failures = 0 }
}
