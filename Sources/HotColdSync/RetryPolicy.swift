import Foundation
import HotColdCore

/// When to retry a web-sync request after retryable failures (408, 429, 5xx, timeouts,
/// connection failures): the server's Retry-After when it gives one, else HotColdCore's
/// ``Backoff`` (the n-th consecutive failure waits `min(cap, base · 2^(n-1))`) with its equal
/// jitter, so many cars coming back online do not retry in step. The jitter source is
/// injectable, so tests are deterministic.
///
/// ```swift
/// let p = RetryPolicy(base: 1, cap: 300, jitter: { 0.5 })
/// p.delay(afterFailures: 1)   // 0.75 s
/// p.delay(afterFailures: 20)  // 225 s (cap 300, three quarters with jitter 0.5)
/// ```
public struct RetryPolicy: Sendable {
    public var backoff: Backoff
    /// A number in 0..<1.
    public var jitter: @Sendable () -> Double
    /// The longest Retry-After honoured as given (longer is clamped: a server's typo must not
    /// park the outbox for a year).
    public var maxRetryAfter: Double

    /// `base` and `cap` in seconds.
    public init(base: Double = 2, cap: Double = 900, maxRetryAfter: Double = 86_400,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        backoff = Backoff(initial: .seconds(base.isFinite ? base : 0), cap: .seconds(cap.isFinite ? cap : 0))
        self.maxRetryAfter = maxRetryAfter
        self.jitter = jitter
    }

    /// Seconds to wait after the `failures`-th consecutive failure (1-based).
    public func delay(afterFailures failures: Int) -> Double {
        let d = backoff.delay(afterFailures: failures, jitter: jitter())
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// The wait for a failure: the server's Retry-After when given (clamped), else the backoff.
    public func delay(afterFailures failures: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return clampRetryAfter(retryAfter) }
        return delay(afterFailures: failures)
    }

    /// A server's Retry-After as it is honoured: from none to `maxRetryAfter` seconds.
    public func clampRetryAfter(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds > 0 ? maxRetryAfter : 0 }
        return min(max(seconds, 0), maxRetryAfter)
    }

    /// The longest wait this policy ever sets: a stored time further away than this was not
    /// set by it on a clock that agrees with today's.
    public var longestWait: Double { max(maxRetryAfter, longestBackoff) }

    /// The longest wait of our own backoff (the cap).
    public var longestBackoff: Double {
        let cap = backoff.cap.components
        return Double(cap.seconds) + Double(cap.attoseconds) / 1e18
    }

    /// Parses a Retry-After header: delay-seconds or an HTTP-date (RFC 9110), as seconds from
    /// receipt; nil when absent or unreadable. A date is measured against the reply's own
    /// `Date` header when it has a readable one (both are the server's clock, so ours being
    /// wrong does not matter), else against `now`. Converted once, here: what is kept after
    /// this is a duration, never the date.
    public static func retryAfter(_ header: String?, serverDate: String? = nil, now: Date = Date()) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let s = Double(text), s >= 0, s.isFinite { return s }
        if let d = HTTPDate.parse(text) {
            let reference = serverDate.flatMap { HTTPDate.parse($0.trimmingCharacters(in: .whitespaces)) } ?? now
            return max(0, d.timeIntervalSince(reference))
        }
        return nil
    }
}
