/// Capped exponential backoff for reconnecting to gpsd.
///
/// The default (100 ms doubling, capped at 1 s) gives up to one refused loopback connect per
/// second during an outage, and bounds the time from "gpsd listening again" to "connected" by
/// the cap: that leaves about 2 s of the 3 s budget for gpsd's start-up and the receiver's
/// next 1 Hz report.
///
/// ```swift
/// var b = Backoff.gpsdDefault
/// b.nextDelay()   // 0.1 s
/// b.nextDelay()   // 0.2 s
/// b.reset()       // after a successful connection
/// ```
public struct Backoff: Sendable, Equatable {
    public let initial: Duration
    public let cap: Duration
    private var current: Duration

    public init(initial: Duration, cap: Duration) {
        precondition(initial > .zero && cap >= initial, "Backoff needs 0 < initial <= cap")
        self.initial = initial
        self.cap = cap
        self.current = initial
    }

    /// 100 ms, 200 ms, 400 ms, 800 ms, then 1 s for as long as gpsd stays away.
    public static let gpsdDefault = Backoff(initial: .milliseconds(100), cap: .seconds(1))

    /// The delay before the next attempt; each call doubles the following one, up to `cap`.
    public mutating func nextDelay() -> Duration {
        let delay = current
        current = min(current * 2, cap)
        return delay
    }

    /// Back to `initial`, after a connection succeeded.
    public mutating func reset() { current = initial }
}
