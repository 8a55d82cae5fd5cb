import Foundation
import HotColdProtocol
import HotColdSyncProtocol
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

    private func run() {
        var reported = false
        while !isStopped {
            let fd: Int32
            do { fd = try DaemonLink.connect(socketPath) } catch {
                if !reported { log("waiting for the daemon: \(error)"); reported = true }
                Thread.sleep(forTimeInterval: retry)
                continue
            }
            reported = false
            let watch = Array(#"{"cmd":"watch","classes":["QUEUED"]}"#.utf8) + [UInt8(ascii: "\n")]
            let sent = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent == watch.count {
                log("watching \(socketPath) for QUEUED events")
                wake()      // whatever was queued while we were not watching
                var buffer: [UInt8] = []
                reading: while !isStopped {
                    switch DaemonLink.readLine(fd: fd, buffer: &buffer, maxLine: 1 << 20, waitMs: 500) {
                    case .idle: continue
                    case .closed: break reading
                    case .line(let line):
                        guard let e = try? QueuedEvent.decode(line: line), e.pending > 0 else { continue }
                        wake()
                    }
                }
                if !isStopped { log("the daemon at \(socketPath) went away; reconnecting") }
            }
            close(fd)
            if !isStopped { Thread.sleep(forTimeInterval: min(retry, 0.5)) }
        }
    }
}
