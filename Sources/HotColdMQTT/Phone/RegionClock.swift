#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The clock a phone region's creation time (`tst`) is read from: the earlier of the box's
/// clock and the receiver's — the latest fix's time carried forward by the monotonic seconds
/// since that fix arrived. Either alone can be far off (a box without a real-time clock boots
/// in the past, or had its clock set years ahead; a replay's fixes carry their own dates), but
/// a creation time may be late without harm and must never be in the future, so the earlier
/// one is taken: right whenever either clock is.
///
/// ```swift
/// var clock = RegionClock()
/// clock.noteFix(time: fix.time, arrived: monotonicSeconds)
/// let tst = regions.stamp(id, now: clock.now(box: Date(), monotonic: monotonicSeconds))
/// ```
struct RegionClock: Sendable {
    private var latest: (time: Date, arrived: Double)?

    /// A fix's time, and when it arrived on the bridge's monotonic clock.
    mutating func noteFix(time: Date, arrived: Double) {
        guard time.timeIntervalSince1970.isFinite else { return }
        if latest.map({ $0.time < time }) ?? true { latest = (time, arrived) }
    }

    func now(box: Date, monotonic: Double) -> Date {
        guard let latest else { return box }
        return min(box, latest.time.addingTimeInterval(max(0, monotonic - latest.arrived)))
    }
}
