import HotColdCore

/// What happened at gpsd, as a ``GPSDSource`` reports it, in order, from its reader thread:
/// the link came up or went down, a fix arrived, or a report without a time.
///
/// A session looks like `.lost` (only if gpsd was not there at first), `.connected`,
/// any number of `.fix` / `.untimed`, then `.lost` when gpsd goes away, `.connected` when it
/// is back, and so on until ``GPSDSource/stop()``.
///
/// ```swift
/// for await event in GPSDSource(port: 2947).events() {
///     switch event {
///     case .connected: print("gpsd up")
///     case .fix(let fix, let receivedAt): engine.feed(fix, receivedAt)
///     case .untimed(let mode, _): print("receiver mode \(mode), no time")
///     case .lost(let reason): print("GPS lost: \(reason)")
///     }
/// }
/// ```
public enum GPSDEvent: Sendable, Equatable {
    /// gpsd accepted the watch: reports will follow.
    case connected
    /// A TPV report with a time. `receivedAt` is when it was read from gpsd (for
    /// fix-to-output latency, and for "now" on the fixes' own timeline).
    case fix(Fix, receivedAt: ContinuousClock.Instant)
    /// A TPV report without a time (gpsd 3.22 sends these for "no fix" and sometimes for the
    /// first fix). Only the mode is usable: without a time it cannot be ordered against fixes.
    case untimed(mode: Fix.Mode, receivedAt: ContinuousClock.Instant)
    /// gpsd is unreachable or closed the connection. Reported once per outage; the source keeps
    /// retrying with ``Backoff`` until ``GPSDSource/stop()``.
    case lost(reason: String)
}
