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
    /// mode so that `gps_read` returns 0 instead of blocking when only part of a line is buffered.
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

    /// Clears `set`, then reads one message: bytes consumed, 0 when no complete line is buffered,
    /// -1 when gpsd closed the connection or it failed.
    func read() -> Int32 {
        data.pointee.set = 0
        return gps_read(data, nil, 0)
    }

    /// True while libgps has buffered input or the socket is readable right now.
    var hasMoreInput: Bool { isOpen && gps_waiting(data, 0) }

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
