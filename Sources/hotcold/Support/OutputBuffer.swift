import Foundation

/// Buffered writes to a file descriptor: replays print hundreds of thousands of lines, and one
/// write(2) per line would dominate.
final class OutputBuffer {
    private var buffer: [UInt8] = []
    private let fd: Int32

    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    /// A line of text, made safe for a terminal (``Shown/text(_:)``).
    func line(_ s: String) { raw(Shown.text(s)) }

    /// A JSON line, kept JSON and made safe for a terminal (``Shown/json(_:)``).
    func json(_ s: String) { raw(Shown.json(s)) }

    /// A line in the program's own colours, each value from outside already made safe.
    func painted(_ s: String) { raw(s) }

    private func raw(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        var off = 0
        while off < buffer.count {
            let n = buffer[off...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            off += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Writes one line to stderr, made safe for a terminal: messages quote names and the daemon's words.
func warn(_ s: String) {
    FileHandle.standardError.write(Data((Shown.text(s) + "\n").utf8))
}
