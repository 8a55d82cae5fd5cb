import CGPS
#if canImport(Glibc)
import Glibc
#endif

/// Why a connection to gpsd could not be made.
struct GPSDConnectionError: Error, CustomStringConvertible {
    var description: String
}

/// One libgps session: owns the heap-allocated `gps_data_t` (about 24 KB) and closes it.
///
/// Not thread-safe: used only by the ``GPSDSource`` reader thread.
final class GPSDConnection {
    let data: UnsafeMutablePointer<gps_data_t>
    private var isOpen = false

    /// `gps_open` + `?WATCH={"enable":true,"json":true}`, then puts the socket in non-blocking
    /// mode so that ``read()`` returns 0 instead of blocking when only part of a line is buffered.
    static func open(host: String, port: Int) throws(GPSDConnectionError) -> GPSDConnection {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        errno = 0
        if gps_open(host, String(port), data) != 0 {
            let code = errno
            data.deallocate()
            throw GPSDConnectionError(description: "gpsd at \(host):\(port): \(describe(code))")
        }
        // From here on the connection owns `data` and closes and frees it.
        let connection = GPSDConnection(openData: data)
        if gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) != 0 {
            throw GPSDConnectionError(
                description: "gpsd at \(host):\(port): WATCH failed: \(describe(errno))")
        }
        let fd = data.pointee.gps_fd
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        return connection
    }

    private init(openData: UnsafeMutablePointer<gps_data_t>) {
        data = openData
        isOpen = true
    }

    deinit {
        close()
        data.deallocate()
    }

    var fileDescriptor: Int32 { data.pointee.gps_fd }

    /// Clears `set`, then reads one line from gpsd and, when ``GPSDLineGuard`` lets it through,
    /// parses it with libgps (`gps_unpack`, what `gps_read` would call): bytes consumed, 0 when
    /// no complete line is buffered, -1 when gpsd closed the connection or it failed.
    ///
    /// Lines are read here rather than by `gps_read` because libgps's parser hangs on some
    /// malformed lines (see ``GPSDLineGuard``); a line longer than ``maximumLineLength`` is
    /// dropped whole.
    func read() -> Int32 {
        data.pointee.set = 0
        while true {
            if let newline = pending[consumed...].firstIndex(of: 0x0A) {
                let line = pending[consumed..<newline]
                consumed = newline + 1
                defer { compact() }
                if discarding {
                    discarding = false
                } else if GPSDLineGuard.accepts(line) {
                    var text = Array(line)
                    text.append(0)
                    _ = text.withUnsafeMutableBufferPointer { p in
                        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { gps_unpack($0, data) }
                    }
                }
                return Int32(clamping: line.count + 1)
            }
            if pending.count - consumed > Self.maximumLineLength {
                // Keep reading, only to find where the monster line ends.
                discarding = true
                consumed = pending.count
                compact()
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let n = chunk.withUnsafeMutableBytes { recv(fileDescriptor, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                pending.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 { return -1 }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
        }
    }

    /// gpsd's longest objects (SKY with every satellite, DEVICES) stay far below this.
    static let maximumLineLength = 64 * 1024
    /// Bytes received and not yet handed out as lines; `pending[..<consumed]` are used up.
    private var pending: [UInt8] = []
    private var consumed = 0
    /// Dropping the rest of an over-long line up to its newline.
    private var discarding = false

    private func compact() {
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
            consumed = 0
        } else if consumed > 16 * 1024 {
            pending.removeFirst(consumed)
            consumed = 0
        }
    }

    /// True while a complete line is buffered or the socket is readable right now.
    var hasMoreInput: Bool {
        guard isOpen else { return false }
        if pending[consumed...].contains(0x0A) { return true }
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) > 0
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = gps_close(data)
    }

    /// libgps reports its own failures as negative errno values (`gps_errstr`), the system's as
    /// positive ones.
    static func describe(_ code: Int32) -> String {
        if code < 0, let s = gps_errstr(code) { return String(cString: s) }
        if code > 0, let s = strerror(code) { return String(cString: s) }
        return "unknown error"
    }
}
