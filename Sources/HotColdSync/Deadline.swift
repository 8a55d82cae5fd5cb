import Foundation

/// Runs an operation with a hard deadline: the result, or `Expired` when the time is up,
/// whichever comes first. The operation is cancelled on expiry but not waited for, so an
/// operation that ignores cancellation (a stuck socket read) cannot stretch the deadline.
///
/// ```swift
/// let r = await Deadline.run(seconds: 5) { try await session.data(for: request) }
/// ```
enum Deadline {
    struct Expired: Error {}

    static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
        let once = Once<T>()
        return await withCheckedContinuation { (cont: CheckedContinuation<Result<T, any Error>, Never>) in
            once.set(cont)
            let work = Task {
                do { once.resume(.success(try await operation())) } catch { once.resume(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
                if !Task.isCancelled, once.resume(.failure(Expired())) { work.cancel() }
            }
            once.onFinish { timer.cancel() }
        }
    }

    /// Resumes a continuation once, from whichever side gets there first.
    private final class Once<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var cont: CheckedContinuation<Result<T, any Error>, Never>?
        private var done = false
        private var finish: (@Sendable () -> Void)?

        func set(_ c: CheckedContinuation<Result<T, any Error>, Never>) {
            lock.lock(); cont = c; lock.unlock()
        }

        func onFinish(_ f: @escaping @Sendable () -> Void) {
            lock.lock()
            if done { lock.unlock(); f(); return }
            finish = f
            lock.unlock()
        }

        @discardableResult
        func resume(_ r: Result<T, any Error>) -> Bool {
            lock.lock()
            guard !done, let c = cont else { lock.unlock(); return false }
            done = true
            cont = nil
            let f = finish
            finish = nil
            lock.unlock()
            c.resume(returning: r)
            f?()
            return true
        }
    }
}
