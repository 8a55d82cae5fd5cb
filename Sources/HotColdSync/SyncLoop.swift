import Foundation

/// The daemon's periodic sync, off the engine's path: a task of its own that syncs every
/// `interval` seconds, sooner when an outbox item comes due, and at once when nudged (the
/// network came back, the user rated something). Requests carry deadlines, so a hung server
/// holds only this task, never tracking or the socket.
///
/// ```swift
/// let loop = SyncLoop(syncer: syncer, interval: config.api.syncIntervalSeconds) { report in log(report.summary) }
/// let task = Task { await loop.run() }     // cancel the task to stop
/// loop.nudge()                             // e.g. after a rating came in over the socket
/// ```
public final class SyncLoop: Sendable {
    public let syncer: Syncer
    public let interval: Double
    let onReport: @Sendable (SyncReport) -> Void
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation

    public init(syncer: Syncer, interval: Double, onReport: @escaping @Sendable (SyncReport) -> Void = { _ in }) {
        self.syncer = syncer
        self.interval = interval
        self.onReport = onReport
        (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a sync now (coalesced with one already asked for).
    public func nudge() { wakeContinuation.yield() }

    /// Syncs until the task is cancelled.
    public func run() async {
        var wakes = wake.makeAsyncIterator()
        while !Task.isCancelled {
            let report = await syncer.sync()
            onReport(report)
            var wait = interval
            if let next = report.nextAttemptIn { wait = min(wait, max(1, next)) }
            // Sleep until the wait is over or someone nudges, whichever is first.
            let cont = wakeContinuation
            let timer = Task {
                try? await Task.sleep(nanoseconds: sleepNanoseconds(wait))
                if !Task.isCancelled { cont.yield() }
            }
            _ = await wakes.next()
            timer.cancel()
        }
    }
}
