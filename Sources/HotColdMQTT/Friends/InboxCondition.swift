import Glibc

/// A lock with a condition to wait on, timed by the monotonic clock: what `NSCondition` gives,
/// without Foundation (the bridge imports only FoundationEssentials, a smaller program). A
/// clock step — a box without a real-time clock setting its time from GPS — neither wakes a
/// waiter early nor holds it past its timeout.
final class InboxCondition: @unchecked Sendable {
    // Heap-allocated so their addresses never move (pthread objects must not be copied).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes one waiter. Call with the lock held.
    func signal() { pthread_cond_signal(cond) }

    /// The monotonic instant `seconds` from now, for ``wait(until:)``.
    static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var t = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
        if t.tv_nsec >= 1_000_000_000 { t.tv_sec += 1; t.tv_nsec -= 1_000_000_000 }
        return t
    }

    /// Waits (the lock held, released while waiting) for a signal or `deadline`; false when
    /// the deadline passed.
    func wait(until deadline: timespec) -> Bool {
        var d = deadline
        return pthread_cond_timedwait(cond, mutex, &d) != ETIMEDOUT
    }
}
