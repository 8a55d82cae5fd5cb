import Glibc

/// Write end of the self-pipe; set once before any handler is installed, read by handlers.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signals turned into bytes on a pipe, so the screen's poll(2) loop sees them with its other
/// inputs and does the real work (restoring the terminal, redrawing) outside the handler.
///
/// The handler only calls write(2), which is async-signal-safe; a `DispatchSource` is no
/// option here (see DESIGN.md: it crashes when made from top-level code under Swift 6).
enum SignalPipe {
    /// Installs handlers for `signals` and returns the pipe's read end (non-blocking; each byte
    /// read is a signal number).
    static func install(_ signals: [Int32]) -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = fds[1]
        for s in signals { handle(s) }
        return fds[0]
    }

    /// Routes `signal` to the pipe (again, after a default action was borrowed for SIGTSTP).
    static func handle(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: sig)
            _ = write(signalPipeWriteEnd, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    /// Restores the default action for `signal`.
    static func reset(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// Signals received since the last call.
    static func drain(_ fd: Int32) -> [Int32] {
        var out: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            out += buffer[..<n].map { Int32($0) }
        }
        return out
    }
}
