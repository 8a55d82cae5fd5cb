import Glibc
import Synchronization

/// Wakes the event loop from any thread: a non-blocking pipe, written at most once per wake-up.
final class LoopWaker: Sendable {
    let readFD: Int32
    private let writeFD: Int32
    private let pending = Atomic<Bool>(false)

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SocketServerError.system("pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        Glibc.close(readFD)
        Glibc.close(writeFD)
    }

    /// Never blocks: if the pipe is full a wake-up is already pending.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var b: UInt8 = 1
        _ = Glibc.write(writeFD, &b, 1)
    }

    /// Called by the loop before it looks at the queues. The pipe is emptied *before* the flag
    /// is cleared: clearing first would let a `wake()` in between set the flag and have its byte
    /// read here, leaving the flag set with an empty pipe, so every later wake-up (shutdown's
    /// included) would be skipped and the loop would sleep in poll(2) for good.
    func drain() {
        var buf = [UInt8](repeating: 0, count: 64)
        while Glibc.read(readFD, &buf, buf.count) > 0 {}
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
