/// Capped exponential backoff: `initial`, doubling, never above `maximum`; `reset()` after a success.
struct Backoff {
    let initial: Double
    let maximum: Double
    private(set) var next: Double

    init(initial: Double, maximum: Double) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        next = initial
    }

    /// The delay to wait now; the one after it doubles.
    mutating func delay() -> Double {
        let d = next
        next = min(next * 2, maximum)
        return d
    }

    mutating func reset() { next = initial }
}
