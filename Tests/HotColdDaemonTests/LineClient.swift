import Foundation
import Glibc

/// A blocking Unix-socket client for tests: send text, read lines with a generous deadline.
final class LineClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var sawEOF = false

    init(path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let rc = withUnsafeBytes(of: &addr) {
            connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(MemoryLayout<sockaddr_un>.size))
        }
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw TestError("connect \(path): \(String(cString: strerror(e)))")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { sendBytes(Array(text.utf8)) }

    func sendBytes(_ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { if errno == EINTR { continue }; return }
            done += n
        }
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, or nil at end of stream or when `timeout` passes.
    func readLine(timeout: Duration = .seconds(20)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            if sawEOF { return nil }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(min(left / .milliseconds(1), 60_000).rounded(.up))
            if poll(&p, 1, ms) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n > 0 { buffer.append(contentsOf: chunk[..<n]) } else if n == 0 || errno != EINTR { sawEOF = true }
        }
    }

    /// Every line until end of stream (or the deadline).
    func readToEnd(timeout: Duration = .seconds(30)) -> [String] {
        var lines: [String] = []
        let deadline = ContinuousClock.now + timeout
        while let l = readLine(timeout: max(.zero, deadline - ContinuousClock.now)) { lines.append(l) }
        return lines
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Waits for a condition with a generous deadline (a functional bound, not a timing check).
func eventually(_ timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
