import Foundation
import HotColdProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Watches the daemon's `QUEUED` events on a connection of its own and calls `wake` when
/// something was queued — and when the daemon (re)appears, since it may have queued things
/// while the watcher was away. Reconnects every `retry` seconds while the daemon is gone.
///
/// Runs on a thread of its own (blocking reads with a short poll, so ``stop()`` is prompt).
///
/// ```swift
/// let watcher = OutboxWatcher(socketPath: "/run/hotcold/hotcold.sock") { loop.nudge() }
/// watcher.start()
/// ```
public final class OutboxWatcher: @unchecked Sendable {
    public let socketPath: String
    public let retry: Double
    let wake: @Sendable () -> Void
    let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var thread: Thread?
    // The service's state for the daemon's `status` (`report`): the latest, and whether it
    // still has to be sent on the current connection.
    private var latestReport: ReportRequest?
    private var reportUnsent = false

    public init(socketPath: String, retry: Double = 2, log: @escaping @Sendable (String) -> Void = { _ in },
                wake: @escaping @Sendable () -> Void) {
        self.socketPath = socketPath
        self.retry = retry
        self.log = log
        self.wake = wake
    }

    public func start() {
        let t = Thread { [self] in run() }
        t.name = "outbox-watcher"
        lock.lock(); thread = t; lock.unlock()
        t.start()
    }

    public func stop() { lock.lock(); stopped = true; lock.unlock() }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Tells the daemon (within half a second, and again after every reconnect) how the sync
    /// service is doing; `hotcold status` shows it. Sent on the watching connection, so the
    /// daemon shows the service gone when it stops.
    public func report(_ r: ReportRequest) {
        lock.lock(); latestReport = r; reportUnsent = true; lock.unlock()
    }

    private func takeReport(all: Bool) -> ReportRequest? {
        lock.lock(); defer { lock.unlock() }
        guard all || reportUnsent else { return nil }
        reportUnsent = false
        return latestReport
    }

    private func run() {
        var reported = false
        while !isStopped {
            let connection: LineClient
            do { connection = try LineClient(path: socketPath) } catch {
                if !reported { log("waiting for the daemon: \(error)"); reported = true }
                Thread.sleep(forTimeInterval: retry)
                continue
            }
            reported = false
            connection.maxLineBytes = 1 << 20
            if (try? connection.send(.watch(WatchRequest(classes: [QueuedEvent.wireClass])))) != nil {
                log("watching \(socketPath) for QUEUED events")
                wake()      // whatever was queued while we were not watching
                var first = true
                reading: while !isStopped {
                    if let r = takeReport(all: first) { try? connection.send(.report(r)) }
                    first = false
                    let line: String?
                    do { line = try connection.readLine(timeout: 0.5) } catch {
                        if case .timeout = error { continue }
                        break reading
                    }
                    guard let line else { break reading }
                    guard let e = try? QueuedEvent.decode(line: line), e.pending > 0 else { continue }
                    wake()
                }
                if !isStopped { log("the daemon at \(socketPath) went away; reconnecting") }
            }
            if !isStopped { Thread.sleep(forTimeInterval: min(retry, 0.5)) }
        }
    }
}
