/// A token bucket: `burst` tokens at most, refilled at `perSecond`; each write takes one.
/// A value with explicit times, so it is tested without sleeping.
///
/// ```swift
/// var b = TokenBucket(burst: 20, perSecond: 5, now: .zero)
/// b.take(now: .zero)                    // nil: admitted
/// // … 20 takes later, at the same instant:
/// b.take(now: .zero)                    // .milliseconds(200): the wait until the next token
/// ```
struct TokenBucket: Sendable, Equatable {
    let burst: Double
    let perSecond: Double
    private var tokens: Double
    private var last: Duration

    /// `now` is any monotonic time as a `Duration` since some fixed start.
    init(burst: Int, perSecond: Double, now: Duration) {
        self.burst = Double(max(1, burst))
        self.perSecond = perSecond.isFinite && perSecond > 0 ? perSecond : 1
        self.tokens = self.burst
        self.last = now
    }

    private mutating func refill(_ now: Duration) {
        guard now > last else { return }
        let seconds = Double((now - last).components.seconds) + Double((now - last).components.attoseconds) * 1e-18
        tokens = min(burst, tokens + seconds * perSecond)
        last = now
    }

    /// Takes a token: nil when admitted, else how long until one is available.
    mutating func take(now: Duration) -> Duration? {
        refill(now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        // perSecond > 0, so this is finite; capped at a day before the conversion.
        return .milliseconds(Int64(min(((1 - tokens) / perSecond * 1000).rounded(.up), 86_400_000)))
    }

    /// Whether the bucket would be full at `now` (it can be forgotten: a new one is the same).
    func isFull(now: Duration) -> Bool {
        var copy = self
        copy.refill(now)
        return copy.tokens >= burst
    }
}
