import Glibc

/// The lines waiting to be written to one client, bounded by `limit` bytes.
///
/// Whole lines only: a line either fits entirely or is refused, so the bound never cuts a
/// line. Callers append under the client's lock; the event loop takes a `peek` under the lock,
/// writes it with no lock held, and `consume`s what was written — only the loop removes
/// lines, so the peeked lines stay at the front meanwhile.
struct OutputQueue {
    let limit: Int
    private var lines: [OutgoingLine] = []
    private var head = 0
    /// Bytes of `lines[head]` already written.
    private var offset = 0
    /// Bytes not yet written.
    private(set) var count = 0

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { count == 0 }

    /// Appends when the queue stays within the limit.
    mutating func append(_ line: OutgoingLine) -> Bool {
        guard count + line.count <= limit else { return false }
        appendRegardless(line)
        return true
    }

    /// Appends past the limit: for the one final `ERROR` line of a dropped client.
    mutating func appendRegardless(_ line: OutgoingLine) {
        lines.append(line)
        count += line.count
    }

    /// Up to `max` lines from the front, and how much of the first is already written.
    /// A copy (not a slice, which would make the next `append` copy the whole queue).
    func peek(max: Int = 64) -> (lines: [OutgoingLine], offset: Int) {
        (Array(lines[head..<min(lines.count, head + max)]), offset)
    }

    /// Removes `n` written bytes from the front.
    mutating func consume(_ n: Int) {
        var left = n
        count -= n
        while left > 0 {
            let rest = lines[head].count - offset
            if left >= rest {
                left -= rest
                head += 1
                offset = 0
            } else {
                offset += left
                left = 0
            }
        }
        if head == lines.count {
            lines.removeAll(keepingCapacity: lines.capacity <= 256)
            head = 0
        } else if head >= 1024, head * 2 >= lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }

    enum WriteOutcome: Equatable { case drained, blocked, failed(Int32) }

    /// Writes `lines` (from `offset` in the first) with one `writev`, without blocking.
    /// Returns the bytes written (0 when none) and the outcome.
    static func write(_ lines: [OutgoingLine], offset: Int, to fd: Int32) -> (Int, WriteOutcome) {
        guard !lines.isEmpty else { return (0, .drained) }
        var iov = [iovec]()
        iov.reserveCapacity(lines.count)
        var total = 0
        for (i, line) in lines.enumerated() {
            let skip = i == 0 ? offset : 0
            iov.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: line.bytes.baseAddress! + skip),
                             iov_len: line.count - skip))
            total += line.count - skip
        }
        var msg = msghdr()
        while true {
            let n = iov.withUnsafeMutableBufferPointer { p -> Int in
                msg.msg_iov = p.baseAddress
                msg.msg_iovlen = p.count
                return sendmsg(fd, &msg, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n >= 0 { return (n, n == total ? .drained : .blocked) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return (0, .blocked)
            default: return (0, .failed(errno))
            }
        }
    }
}
