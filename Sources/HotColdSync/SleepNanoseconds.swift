/// Seconds to sleep as the nanoseconds `Task.sleep` wants, never trapping: a negative or NaN wait
/// is none, and waits are capped at 30 days (a configured interval or a server's figure larger
/// than that is a mistake, and `UInt64(seconds * 1e9)` would trap past about 584 years).
///
/// ```swift
/// try await Task.sleep(nanoseconds: sleepNanoseconds(2.5))   // 2_500_000_000
/// ```
public func sleepNanoseconds(_ seconds: Double) -> UInt64 {
    guard seconds > 0 else { return 0 }   // also NaN
    return UInt64((min(seconds, 30 * 86_400) * 1e9).rounded())
}
