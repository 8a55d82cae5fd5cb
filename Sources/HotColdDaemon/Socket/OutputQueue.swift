import Glibc

/// The bytes waiting to be written to one client, bounded by `limit`.
///
/// Whole lines only: a line either fits entirely or is refused, so a client never
/// receives half a line because of the bound.
struct OutputQueue {
    let limit: Int
    private var storage: [UInt8] = []
    private var head = 0

    init(limit: Int) { self.limit = limit }

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    /// Appends `line` and a newline when the result stays within the limit.
    mutating func append(_ line: String) -> Bool {
        guard count + line.utf8.count + 1 <= limit else { return false }
        appendRegardless(line)
        return true
    }

    /// Appends past the limit: for the one final `ERROR` line of a dropped client.
    mutating func appendRegardless(_ line: String) {
        storage.append(contentsOf: line.utf8)
        storage.append(UInt8(ascii: "\n"))
    }

    enum WriteOutcome: Equatable { case drained, blocked, failed(Int32) }

    /// Writes as much as the socket takes without blocking.
    mutating func write(to fd: Int32) -> WriteOutcome {
        var outcome = WriteOutcome.drained
        while head < storage.count {
            let n = storage.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + head, storage.count - head, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n > 0 { head += n; continue }
            if n < 0, errno == EINTR { continue }
            outcome = (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ? .blocked : .failed(n < 0 ? errno : EPIPE)
            break
        }
        compact()
        return outcome
    }

    private mutating func compact() {
        if head == storage.count {
            // Keep a small buffer for the next lines; give a large one back.
            storage.removeAll(keepingCapacity: storage.capacity <= 64 * 1024)
            head = 0
        } else if head >= 64 * 1024, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
