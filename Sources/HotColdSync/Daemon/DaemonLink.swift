import Foundation
import HotColdProtocol

/// The sync process's request/reply connection to the daemon: send a line, wait (with a
/// deadline) for its `SYNC` or `ERROR` reply, skipping the greeting and anything broadcast.
/// Connects on first use and again after any failure, so a daemon restart costs one failed
/// call, not the process. Built on the protocol module's ``LineClient``.
///
/// ```swift
/// let link = DaemonLink(path: "/run/hotcold/hotcold.sock")
/// let reply = try link.call(#"{"cmd":"sync","op":"pending"}"#)
/// ```
public final class DaemonLink: @unchecked Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let path: String
    /// Seconds to wait for a reply.
    public let timeout: Double
    /// The longest reply line accepted (a catalogue report with many skipped rows is the largest).
    public let maxLine = 8 << 20
    private let lock = NSLock()
    private var client: LineClient?

    public init(path: String, timeout: Double = 60) {
        self.path = path
        self.timeout = timeout
    }

    /// Sends `line` and returns the reply line (`SYNC…` or `ERROR…`).
    public func call(_ line: String) throws(Failure) -> String {
        lock.lock()
        defer { lock.unlock() }
        do {
            let c = try client ?? Self.connect(path)
            c.maxLineBytes = maxLine
            client = c
            try c.send(line)
            let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw ClientError.timeout(path: path, waitingFor: "a reply", seconds: timeout) }
                let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
                guard let reply = try c.readLine(timeout: seconds) else {
                    throw ClientError.closed(path: path, waitingFor: "a reply")
                }
                if reply.hasPrefix(#"{"class":"SYNC""#) || reply.hasPrefix(#"{"class":"ERROR""#) { return reply }
            }
        } catch {
            client = nil    // a late reply must never answer the next call
            throw Failure(description: (error as? ClientError)?.description ?? "\(error)")
        }
    }

    public func close() {
        lock.lock()
        client = nil
        lock.unlock()
    }

    /// A connection to the daemon at `path`.
    static func connect(_ path: String) throws(Failure) -> LineClient {
        do { return try LineClient(path: path) } catch { throw Failure(description: error.description) }
    }
}
