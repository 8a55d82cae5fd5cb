import Foundation

/// Runs a callback-style operation with a hard deadline: its result, or `Expired` when the time
/// is up, whichever comes first. On expiry (or when the calling task is cancelled) the
/// operation's own cancel is called but not waited for, so an operation that never finishes
/// (a stuck socket read) cannot stretch the deadline.
///
/// Why callbacks and Dispatch rather than `Task` cancellation of `URLSession.data(for:)`:
/// FoundationNetworking (Swift 6.3, Linux) cancels that call's URLSession task from inside the
/// Swift task's cancellation handler, which holds the task's status lock, and does so with a
/// `sync` onto the session's queue; if the reply fails on that queue at the same moment, it
/// waits for the same lock to resume the task: a deadlock (seen in these tests, about one run
/// in five). Here nothing is cancelled while a task lock is held.
///
/// ```swift
/// let r: Result<Int, any Error> = await Deadline.run(seconds: 5) { done in
///     let t = session.dataTask(with: request) { _, _, e in done(e.map { .failure($0) } ?? .success(1)) }
///     t.resume()
///     return { t.cancel() }
/// }
/// ```
enum Deadline {
    struct Expired: Error {}

    /// `start` begins the operation, arranges for `done` to be called once with its result,
    /// and returns a function that cancels it.
    static func run<T: Sendable>(
        seconds: Double,
        _ start: (_ done: @escaping @Sendable (Result<T, any Error>) -> Void) -> (@Sendable () -> Void)
    ) async -> Result<T, any Error> {
        let once = Once<T>()
        let canceller = Locked<(@Sendable () -> Void)?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (cont: CheckedContinuation<Result<T, any Error>, Never>) in
                once.set(cont)
                if once.isDone { return }     // cancelled already
                let cancel = start { once.resume($0) }
                canceller.set(cancel)
                // Fires even after a reply (then finds the work done): cheap, and nothing to race.
                DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0)) {
                    if once.resume(.failure(Expired())) { cancel() }
                }
            }
        } onCancel: {
            // Runs under the calling task's status lock: cancel the operation from elsewhere.
            DispatchQueue.global().async {
                if once.resume(.failure(CancellationError())) { canceller.get()?() }
            }
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
        private var early: Result<T, any Error>?

        var isDone: Bool { lock.lock(); defer { lock.unlock() }; return done }

        func set(_ c: CheckedContinuation<Result<T, any Error>, Never>) {
            lock.lock()
            if let r = early {          // finished before the continuation existed
                early = nil
                lock.unlock()
                c.resume(returning: r)
                return
            }
            cont = c
            lock.unlock()
        }

        @discardableResult
        func resume(_ r: Result<T, any Error>) -> Bool {
            lock.lock()
            guard !done else { lock.unlock(); return false }
            done = true
            guard let c = cont else {
                early = r
                lock.unlock()
                return true
            }
            cont = nil
            lock.unlock()
            c.resume(returning: r)
            return true
        }
    }
}
