/// Turns a stream of failures into a bounded number of log lines: the first of a kind is
/// logged, identical ones after it only counted (a line again at the 10th, 100th, 1,000th…),
/// and the recovery says how many there were.
///
/// A bridge retrying a broken broker or a busy daemon with backoff still fails many times an
/// hour; the journal should say so a handful of times, with a count, not once per attempt.
///
/// ```swift
/// var r = RepeatedFailure()
/// r.failed("daemon busy")      // "daemon busy"
/// r.failed("daemon busy")      // nil
/// r.recovered()                // "… after 2 failures"  (caller adds what recovered)
/// ```
struct RepeatedFailure: Sendable, Equatable {
    private(set) var current: String?
    /// Failures since the last recovery (all kinds).
    private(set) var count = 0
    private var sameInARow = 0

    init() {}

    /// One failure; returns the line to log, or nil when it only counts.
    mutating func failed(_ message: String) -> String? {
        count += 1
        if message == current {
            sameInARow += 1
            guard Self.isPowerOfTen(sameInARow) else { return nil }
            return "\(message) (\(sameInARow) times in a row)"
        }
        let before = sameInARow > 1 && current != nil ? " (the previous failure happened \(sameInARow) times)" : ""
        current = message
        sameInARow = 1
        return message + before
    }

    /// Things work again; returns "after N failures" when there were any (nil otherwise).
    mutating func recovered() -> String? {
        defer { current = nil; count = 0; sameInARow = 0 }
        guard count > 0 else { return nil }
        return count == 1 ? "after 1 failure" : "after \(count) failures"
    }

    static func isPowerOfTen(_ n: Int) -> Bool {
        var n = n
        guard n >= 10 else { return false }
        while n % 10 == 0 { n /= 10 }
        return n == 1
    }
}
