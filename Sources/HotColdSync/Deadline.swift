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
        let work = Locked<Task<Void, Never>?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (cont: CheckedContinuation<Result<T, any Error>, Never>) in
                once.set(cont)
                if once.isDone { return }     // cancelled already
                let w = Task {
                    if once.isDone { return }
                    do { once.resume(.success(try await operation())) } catch { once.resume(.failure(error)) }
                }
                work.set(w)
                let timer = Task {
                    try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
                    if !Task.isCancelled, once.resume(.failure(Expired())) { w.cancel() }
                }
                once.onFinish { timer.cancel() }
            }
        } onCancel: {
            // The caller was cancelled (the daemon shutting down): give up at once.
            if once.resume(.failure(CancellationError())) { work.get()?.cancel() }
        }
    }

    private final class Locked<V: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: V
        init(_ v: V) { value = v }
        func set(_ v: V) { lock.lock(); value = v; lock.unlock() }
        func get() -> V { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Resumes a continuation once, from whichever side gets there first.
    private final class Once<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var cont: CheckedContinuation<Result<T, any Error>, Never>?
        private var done = false
        private var finish: (@Sendable () -> Void)?

        private var early: Result<T, any Error>?

        var isDone: Bool { lock.lock(); defer { lock.unlock() }; return done }

        func set(_ c: CheckedContinuation<Result<T, any Error>, Never>) {
            lock.lock()
            if let r = early {          // cancelled before the continuation existed
                early = nil
                lock.unlock()
                c.resume(returning: r)
                return
            }
            cont = c
            lock.unlock()
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
            guard !done else { lock.unlock(); return false }
            guard let c = cont else {
                done = true
                early = r
                lock.unlock()
                return true
            }
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
