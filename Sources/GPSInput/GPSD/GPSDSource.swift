import CGPS
import Foundation
import HotColdCore
#if canImport(Glibc)
import Glibc
#endif

/// Live positions from gpsd through libgps, with reconnection.
///
/// A dedicated thread connects (`gps_open`, `WATCH_ENABLE|WATCH_JSON`), waits on the socket with
/// poll(2) in short slices so that ``stop()`` takes effect promptly, and reads lines while more
/// are waiting, handing libgps's parser only those ``GPSDLineGuard`` accepts. When gpsd is absent or goes away it reports ``GPSDEvent/lost(reason:)`` once and
/// retries with a capped ``Backoff`` until gpsd is back or the source is stopped. It never exits
/// the process and never traps on what gpsd sends.
///
/// ```swift
/// let source = GPSDSource(host: "localhost", port: 2947)
/// Task {
///     for await input in source.events() { handle(input) }
/// }
/// // later
/// source.stop()
/// ```
///
/// Or with a callback, which runs on the reader thread (keep it short):
/// ```swift
/// source.start { input in queue.append(input) }
/// ```
public final class GPSDSource: @unchecked Sendable {
    public let host: String
    public let port: Int
    public let backoff: Backoff
    /// How long one poll(2) waits before checking for ``stop()``.
    let pollInterval: Duration

    // All mutable state below is guarded by `condition`.
    private let condition = NSCondition()
    private var started = false
    private var stopRequested = false
    private var finished = false
    private var readerThread: pthread_t?

    public init(host: String = "localhost", port: Int = 2947,
                backoff: Backoff = .gpsdDefault, pollInterval: Duration = .milliseconds(100)) {
        self.host = host
        self.port = port
        self.backoff = backoff
        self.pollInterval = pollInterval
    }

    deinit { stop() }

    /// Starts the reader thread; `onInput` is called on it for every ``GPSDEvent``, in order.
    /// A second call (or a call after ``stop()``) does nothing and returns false.
    @discardableResult
    public func start(onInput: @escaping @Sendable (GPSDEvent) -> Void) -> Bool {
        start(onInput: onInput, onFinish: {})
    }

    /// Starts the reader thread and delivers its reports as a stream. The stream finishes after
    /// ``stop()``; cancelling the consuming task (terminating the stream) stops the source.
    /// Reports beyond `bufferingNewest` that the consumer has not taken are dropped, oldest first.
    /// Calling this on a source that was already started gives a stream that finishes at once.
    public func events(bufferingNewest limit: Int = 4096) -> AsyncStream<GPSDEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GPSDEvent.self, bufferingPolicy: .bufferingNewest(limit))
        let didStart = start(
            onInput: { continuation.yield($0) },
            onFinish: { continuation.finish() })
        if didStart {
            continuation.onTermination = { [weak self] _ in self?.stop() }
        } else {
            continuation.finish()
        }
        return stream
    }

    /// Asks the reader thread to end and waits until it has (at most about `pollInterval`, as
    /// long as a connection attempt is not stuck in the kernel: `gps_open` to a remote host that
    /// drops packets blocks until the connect times out). No report is delivered after it returns,
    /// except when called from the reader thread itself (from a callback), where it cannot wait.
    public func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopRequested = true
        condition.broadcast()
        guard started, let reader = readerThread, pthread_equal(reader, pthread_self()) == 0 else {
            return
        }
        while !finished { condition.wait() }
    }

    /// True once ``stop()`` was called and the reader thread has ended (or was never started).
    public var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished || !started
    }

    // MARK: - The reader thread

    private func start(onInput: @escaping @Sendable (GPSDEvent) -> Void,
                       onFinish: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        guard !started, !stopRequested else {
            condition.unlock()
            return false
        }
        started = true
        condition.unlock()

        let thread = Thread { [self] in
            condition.lock()
            readerThread = pthread_self()
            condition.unlock()
            run(deliver: onInput)
            onFinish()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "hotcold.gpsd"
        thread.start()
        return true
    }

    private var shouldStop: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopRequested
    }

    /// Sleeps for `duration` or until ``stop()``; returns true when stopping.
    private func sleepUnlessStopped(_ duration: Duration) -> Bool {
        let seconds = Double(duration.components.seconds)
            + Double(duration.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopRequested {
            if !condition.wait(until: deadline) { break }
        }
        return stopRequested
    }

    private func run(deliver: @Sendable (GPSDEvent) -> Void) {
        var backoff = self.backoff
        var outageReported = false
        while !shouldStop {
            let connection: GPSDConnection
            do {
                connection = try GPSDConnection.open(host: host, port: port)
            } catch {
                if !outageReported {
                    outageReported = true
                    deliver(.lost(reason: error.description))
                }
                if sleepUnlessStopped(backoff.nextDelay()) { return }
                continue
            }
            let reason = stream(connection, deliver: deliver, onConnected: {
                backoff.reset()
                outageReported = false
            })
            connection.close()
            guard let reason, !shouldStop else { return }
            outageReported = true
            deliver(.lost(reason: reason))
            if sleepUnlessStopped(backoff.nextDelay()) { return }
        }
    }

    /// Reads until gpsd goes away (returns why) or ``stop()`` (returns nil).
    private func stream(_ connection: GPSDConnection, deliver: @Sendable (GPSDEvent) -> Void,
                        onConnected: () -> Void) -> String? {
        var announced = false
        var skySeen = false
        let timeoutMs = Int32(clamping: pollInterval.components.seconds * 1000
            + pollInterval.components.attoseconds / 1_000_000_000_000_000)
        func announce() {
            guard !announced else { return }
            announced = true
            onConnected()
            deliver(.connected)
        }
        while !shouldStop {
            var pfd = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, max(timeoutMs, 1))
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll on the gpsd socket failed: \(GPSDConnection.describe(errno))"
            }
            if ready == 0 { continue }
            if pfd.revents & Int16(POLLNVAL) != 0 { return "the gpsd socket was closed" }
            repeat {
                let n = connection.read()
                let receivedAt = ContinuousClock.now
                if n < 0 { return "gpsd at \(host):\(port) closed the connection" }
                if n == 0 { break }  // only part of a line so far: back to poll
                let data = UnsafePointer(connection.data)
                if GPSDFixTranslation.isWatchReply(data) { announce() }
                if GPSDFixTranslation.isSky(data) { skySeen = true }
                if let input = GPSDFixTranslation.input(
                    from: data, skySeen: skySeen, receivedAt: receivedAt) {
                    announce()
                    deliver(input)
                }
            } while !shouldStop && connection.hasMoreInput
        }
        return nil
    }
}
