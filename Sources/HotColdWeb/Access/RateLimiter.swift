#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Token buckets per client key: `rate` tokens a second up to `burst`. The table is bounded
/// (`maxKeys`); when full, the bucket untouched longest is forgotten (it was full anyway, or
/// nearly: forgetting it can only give that client its burst back).
public final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    public let rate: Double
    public let burst: Double
    public let maxKeys: Int
    private let buckets = Mutex<[String: Bucket]>([:])
    private let refusedCount = Mutex(0)

    public init(rate: Double, burst: Int, maxKeys: Int = 4096) {
        self.rate = rate
        self.burst = Double(burst)
        self.maxKeys = maxKeys
    }

    /// Takes one token for `key`; false when it has none left.
    public func allow(_ key: String, now: ContinuousClock.Instant = .now) -> Bool {
        let ok = buckets.withLock { table -> Bool in
            var b = table[key] ?? Bucket(tokens: burst, at: now)
            let elapsed = now - b.at
            b.tokens = min(burst, b.tokens + rate * (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            b.at = now
            let granted = b.tokens >= 1
            if granted { b.tokens -= 1 }
            if table[key] == nil, table.count >= maxKeys,
               let oldest = table.min(by: { $0.value.at < $1.value.at })?.key {
                table[oldest] = nil
            }
            table[key] = b
            return granted
        }
        if !ok { refusedCount.withLock { $0 += 1 } }
        return ok
    }

    public var refused: Int { refusedCount.withLock { $0 } }
}
