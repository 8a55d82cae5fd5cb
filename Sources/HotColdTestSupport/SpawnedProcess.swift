import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with an empty signal mask.
///
/// Foundation's `Process` passes on the test runner's blocked signals (SIGTERM among them), so a
/// program relying on a SIGTERM handler, such as mosquitto saving its persistence, would never
/// see it. posix_spawn with `POSIX_SPAWN_SETSIGMASK` gives the child a clean mask.
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `arguments[0]` (a path) with stdout to `stdout` (appended) and stderr to `stderr`.
    public init(_ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null") throws {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, &attr, argv, environ)
        guard rc == 0 else {
            throw TestFailure("posix_spawn \(arguments[0]): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    deinit {
        if isRunning { kill(pid, SIGKILL); _ = wait(timeout: 5) }
    }

    /// True until the child has exited (and been reaped).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if status != nil { return false }
        var s: Int32 = 0
        if waitpid(pid, &s, WNOHANG) == pid { status = s; return false }
        return true
    }

    /// Sends `sig`.
    public func signal(_ sig: Int32) { kill(pid, sig) }

    /// Waits for the exit; the raw wait status, or nil on timeout.
    @discardableResult
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return lock.withLock { status }
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; reaped.
    public func terminate(grace: TimeInterval = 3) {
        guard isRunning else { return }
        signal(SIGTERM)
        if wait(timeout: grace) == nil {
            signal(SIGKILL)
            wait(timeout: 5)
        }
    }
}
