import Foundation
import HotColdProtocol

/// The sync process's request/reply session with the daemon: one `sync` request at a time,
/// its typed `SYNC` result back within a deadline (the greeting and anything broadcast are
/// skipped). Connects on first use and again after any failure, so a daemon restart costs one
/// failed call, not the process. A `busy` refusal (the write rate, a locked database) is
/// waited out within the deadline: such a refusal comes before anything was done, or after
/// what was done was rolled back, so asking again is safe.
///
/// ```swift
/// let session = SyncSession(path: "/run/hotcold/hotcold.sock")
/// let pending = try session.call(.pending, as: SyncResult.Pending.self)
/// ```
public final class SyncSession: @unchecked Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// The daemon's error code, when it refused the request.
        public var code: ErrorCode?
    }

    public let path: String
    /// Seconds to wait for one reply (and to wait out `busy`).
    public let timeout: Double
    /// The longest reply line accepted (a catalogue report's summary is the largest).
    let maxLine = 8 << 20
    private let lock = NSLock()
    private var client: LineClient?

    public init(path: String, timeout: Double = 60) {
        self.path = path
        self.timeout = timeout
    }

    /// Sends the op and returns its result.
    public func call<R: Codable & Sendable>(_ op: SyncRequest.Operation, as type: R.Type) throws(Failure) -> R {
        try withClient { c throws(ClientError) in try c.call(.sync(SyncRequest(op)), result: .sync, as: R.self, timeout: timeout) }
    }

    /// Sends `data` as an upload for `purpose` and returns its id.
    public func upload(_ data: Data, purpose: UploadRequest.Purpose) throws(Failure) -> String {
        try withClient { c throws(ClientError) in try c.upload(data, purpose: purpose, timeout: timeout) }
    }

    public func close() {
        lock.lock()
        client = nil
        lock.unlock()
    }

    /// Runs `body` on the connection, reconnecting first if needed; `busy` is retried with a
    /// growing pause until the deadline.
    private func withClient<T>(_ body: (LineClient) throws(ClientError) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var pause = 0.1
        while true {
            do throws(ClientError) {
                let c: LineClient
                if let open = client { c = open } else { c = try LineClient(path: path) }
                c.maxLineBytes = maxLine
                client = c
                return try body(c)
            } catch {
                if case .refused(let e) = error {
                    let retry = ContinuousClock.now + .milliseconds(Int64(pause * 1000))
                    guard e.code == .busy, retry < deadline else { throw Failure(description: e.message, code: e.code) }
                    Thread.sleep(forTimeInterval: pause)
                    pause = min(pause * 2, 2)
                    continue
                }
                client = nil    // a late reply must never answer the next call
                throw Failure(description: error.description)
            }
        }
    }
}
