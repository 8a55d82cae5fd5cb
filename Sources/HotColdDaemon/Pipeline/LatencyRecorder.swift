import Histogram

/// Fix-to-socket latency: from `gps_read` returning to the fix's events being written to the
/// socket queues and the log. An HDR histogram keeps p50/p99 exact to three digits in fixed memory.
struct LatencyRecorder {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)

    mutating func record(_ d: Duration) {
        let (s, atto) = d.components
        let ns = s < 0 ? 0 : UInt64(clamping: s).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ UInt64(clamping: atto / 1_000_000_000)
        _ = histogram.record(min(max(1, ns), 60_000_000_000))
    }

    var count: UInt64 { histogram.totalCount }

    /// Percentile in microseconds (0 when nothing was recorded).
    func microseconds(atPercentile p: Double) -> Double {
        guard histogram.totalCount > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(p)) / 1000
    }

    var maxMicroseconds: Double { histogram.totalCount > 0 ? Double(histogram.max) / 1000 : 0 }
}
