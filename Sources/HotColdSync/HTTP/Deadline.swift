import Dispatch
import Synchronization

/// Runs an async operation with a hard deadline: its result, or ``Expired`` when the time is
/// up first. On expiry the operation's task is cancelled, and the operation must stop at once
/// when it is (AsyncHTTPClient does: a cancelled request closes its connection, so no byte
/// more is read or decompressed).
///
/// One deadline for the whole exchange: AsyncHTTPClient's own `deadline:` ends when the
/// reply's head arrives, so a body that drips would otherwise have no end.
///
/// Why a Dispatch timer and not a `Task.sleep` racing in a task group: the cancel then comes
/// from a thread of its own, so the transfer stops on time even when every thread of the
/// cooperative pool is busy elsewhere.
///
/// ```swift
/// let reply = try await Deadline.run(seconds: 20) { try await fetchEverything() }
/// ```
enum Deadline {
    struct Expired: Error {}

    static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let expired = Flag()
        let work = Task { try await operation() }
        let timer = DispatchWorkItem {
            expired.set()
            work.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0), execute: timer)
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            do {
                return try await work.value
            } catch {
                // Whatever the operation threw on being cancelled, the cause was the deadline.
                if expired.isSet { throw Expired() }
                throw error
            }
        } onCancel: {
            work.cancel()
        }
    }

    private final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }
}
