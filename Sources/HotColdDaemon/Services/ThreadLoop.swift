import Foundation

/// Runs a blocking loop on a thread of its own for the span of a service's `run()`: started
/// there, and waited for (up to a limit) when the service stops, without holding one of the
/// few cooperative threads meanwhile.
///
/// ```swift
/// let loop = ThreadLoop.start(name: "hotcold.log-writer") { writer.run() }
/// try? await gracefulShutdown()
/// writer.finish()
/// await loop.join(timeout: .seconds(3))
/// ```
struct ThreadLoop: Sendable {
    private let done: DispatchSemaphore

    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> ThreadLoop {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = name
        thread.start()
        return ThreadLoop(done: done)
    }

    /// Waits for the loop to return; false when it has not within `timeout` (a write blocked
    /// in the kernel cannot be interrupted: the process exits around it).
    @discardableResult
    func join(timeout: Duration) async -> Bool {
        let done = self.done
        return await withCheckedContinuation { c in
            let waiter = Thread { c.resume(returning: done.wait(timeout: .now() + timeout.timeInterval) == .success) }
            waiter.start()
        }
    }
}
