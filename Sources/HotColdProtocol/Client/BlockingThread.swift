import Glibc

/// A detached thread of its own for work that blocks: a `LineClient` waiting on the daemon,
/// libmosquitto's network loop, a control socket's `accept`. Blocking calls must stay off
/// Swift's cooperative pool, and the socket's clients import only FoundationEssentials (a
/// smaller program), which has no `Thread`.
public enum BlockingThread {
    /// The system would not create another thread (`pthread_create` failed: threads or memory
    /// exhausted); nothing was started.
    public struct NotStarted: Error, CustomStringConvertible {
        let code: Int32
        public var description: String { "cannot start a thread: \(String(cString: strerror(code)))" }
    }

    /// Runs `body` on a new detached thread named `name` (the first 15 bytes, as Linux keeps them,
    /// shown by `top -H` and in core dumps).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(NotStarted) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
            BlockingThread.nameThisThread(work.name)
            work.body()
            return nil
        }, work)
        if rc != 0 {
            Unmanaged<Work>.fromOpaque(work).release()
            throw NotStarted(code: rc)
        }
    }

    /// Sleeps the calling thread (never a task on the cooperative pool) for `seconds`.
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var asked = left
        // Woken by a signal: sleep what is left.
        while nanosleep(&asked, &left) != 0, errno == EINTR { asked = left }
    }

    /// What `pthread_setname_np` does, through the file Linux gives each thread for it (the
    /// call itself is not in Swift's Glibc module). A name that cannot be set is no error.
    fileprivate static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    private final class Work {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
