import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A scripted gpsd on a free loopback TCP port, for hostile-input tests: it speaks just enough
/// of gpsd's protocol for libgps (a `VERSION` on connect, a `DEVICES` and `WATCH` reply to
/// `?WATCH=…`), then sends exactly the lines the test gives it, when the test gives them.
///
/// A real gpsd never sends a negative `eph`, a latitude of 91 or mode 7; this one sends whatever
/// it is told. Lines must be compact JSON (no space after `:` or `,`): libgps's parser drops
/// anything else silently. ``tpv(time:latitude:longitude:mode:_:)`` writes them that way.
///
/// ```swift
/// let gpsd = try FakeGPSD()
/// defer { gpsd.stop() }
/// // start a client on gpsd.port, then:
/// try gpsd.waitForWatcher()
/// try gpsd.send(FakeGPSD.tpv(time: t, latitude: -30.3, longitude: 153.1, ["eph": -5]))
/// ```
public final class FakeGPSD: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A value in a scripted line, written as its JSON token. `.raw` writes the text as given
    /// (`nan`, `1e999`, `"x"`…), for values no JSON encoder would produce.
    public enum Value: Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
                       ExpressibleByStringLiteral {
        case number(Double)
        case integer(Int)
        case string(String)
        case raw(String)

        public init(floatLiteral v: Double) { self = .number(v) }
        public init(integerLiteral v: Int) { self = .integer(v) }
        public init(stringLiteral v: String) { self = .string(v) }

        /// The token: Swift's shortest round-tripping text for doubles (`1e+300`, and `nan`,
        /// `inf` for non-finite ones, which are not JSON but are what a broken gpsd might send).
        var token: String {
            switch self {
            case .number(let d): "\(d)"
            case .integer(let i): String(i)
            case .string(let s): "\"" + s.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
            case .raw(let r): r
            }
        }
    }

    /// What gpsd 3.22 says first on every connection.
    public static let versionLine =
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#

    /// The TCP port it listens on (127.0.0.1).
    public let port: UInt16
    private let listener: Int32
    private let condition = NSCondition()
    private var clients: [Client] = []
    private var watchRequests: [String] = []
    private var stopping = false
    private var finished = false

    private final class Client {
        let fd: Int32
        var pending: [UInt8] = []
        var watching = false
        init(fd: Int32) { self.fd = fd }
    }

    /// Binds a free port on 127.0.0.1, listens, and serves connections on its own thread.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else {
            let e = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1: \(e)")
        }
        listener = fd
        port = UInt16(bigEndian: addr.sin_port)
        let thread = Thread { [self] in serve() }
        thread.name = "hotcold.fake-gpsd"
        thread.start()
    }

    deinit { stop() }

    /// Waits until at least one client has sent `?WATCH` and been answered; returns its request.
    @discardableResult
    public func waitForWatcher(timeout: TimeInterval = 10) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !clients.contains(where: \.watching) {
            if !condition.wait(until: deadline) {
                throw Failure(description: "no client sent ?WATCH to 127.0.0.1:\(port) within \(timeout) s")
            }
        }
        return watchRequests.last ?? ""
    }

    /// Sends `line` plus a newline to every watching client. A client that does not take the
    /// bytes within 10 s (or has gone) is disconnected; throws when no client is watching.
    public func send(_ line: String) throws {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// Sends raw bytes (several lines, or a line without its end) to every watching client.
    public func send(bytes: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        let watchers = clients.filter(\.watching)
        guard !watchers.isEmpty else { throw Failure(description: "no client is watching") }
        for c in watchers where !Self.writeAll(c.fd, bytes) { drop(c) }
    }

    /// Closes every client connection (gpsd going away as far as they can tell), but keeps
    /// listening, so that clients can reconnect.
    public func dropClients() {
        condition.lock()
        defer { condition.unlock() }
        for c in clients { drop(c) }
    }

    /// Number of connected clients.
    public var clientCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return clients.count
    }

    /// Stops serving and closes every socket. Idempotent.
    public func stop() {
        condition.lock()
        stopping = true
        while !finished { condition.wait() }
        condition.unlock()
    }

    // MARK: - Building lines

    /// One compact JSON object, `"class"` first, keys in the order given.
    /// Whether `line` keeps to JSON's grammar: the daemon's line guard refuses bare `nan`/`inf`
    /// tokens (which no JSON number can be) before libgps sees the line. `1e999` is grammatical
    /// (its size is a matter for the value checks), so it counts as JSON here.
    public static func isJSON(_ line: String) -> Bool {
        line.range(of: #"[:,\[]\s*-?(nan|NaN|inf|Inf|Infinity)\b"#, options: .regularExpression) == nil
    }

    public static func line(class name: String, _ fields: KeyValuePairs<String, Value>) -> String {
        var s = #"{"class":""# + name + "\""
        for (k, v) in fields { s += ",\"" + k + "\":" + v.token }
        return s + "}"
    }

    /// A TPV as gpsd 3.22 writes it (`time` ISO-8601 with milliseconds), with `extra` fields
    /// after `lat` and `lon`; an `extra` key that is also a standard one is sent twice (libgps
    /// keeps the last). `time: nil` leaves the time out.
    public static func tpv(time: Date?, latitude: Value, longitude: Value, mode: Value = 3,
                           _ extra: KeyValuePairs<String, Value> = [:]) -> String {
        var s = #"{"class":"TPV","device":"/dev/fake","mode":"# + mode.token
        if let time { s += #","time":""# + isoTime(time) + "\"" }
        s += #","lat":"# + latitude.token + #","lon":"# + longitude.token
        for (k, v) in extra { s += ",\"" + k + "\":" + v.token }
        return s + "}"
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, as gpsd writes times (any year gmtime can express).
    public static func isoTime(_ date: Date) -> String {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        var secs = time_t(floor(ms / 1000))
        let millis = Int(ms - Double(secs) * 1000)
        var tm = tm()
        gmtime_r(&secs, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis)
    }

    // MARK: - Serving

    private func serve() {
        var fds: [pollfd] = []
        while true {
            condition.lock()
            if stopping {
                for c in clients { close(c.fd) }
                clients.removeAll()
                close(listener)
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
                + clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            condition.unlock()
            guard poll(&fds, nfds_t(fds.count), 50) > 0 else { continue }
            condition.lock()
            if fds[0].revents & Int16(POLLIN) != 0 { accept() }
            for p in fds.dropFirst() where p.revents != 0 {
                if let c = clients.first(where: { $0.fd == p.fd }) { read(c) }
            }
            condition.unlock()
        }
    }

    /// Called with the lock held.
    private func accept() {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let c = Client(fd: fd)
        clients.append(c)
        if !Self.writeAll(fd, Array((Self.versionLine + "\n").utf8)) { drop(c) }
    }

    /// Called with the lock held: reads what the client sent and answers `?WATCH`.
    private func read(_ c: Client) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = recv(c.fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { drop(c); return }
        guard n > 0 else { return }
        c.pending.append(contentsOf: chunk[..<n])
        while let nl = c.pending.firstIndex(of: 10) {
            let request = String(decoding: c.pending[..<nl], as: UTF8.self)
            c.pending.removeSubrange(...nl)
            guard request.hasPrefix("?WATCH") else { continue }
            watchRequests.append(request)
            let reply = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/fake","driver":"NMEA0183","activated":"2025-01-01T00:00:00.000Z","native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00}]}"#
                + "\n" + #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
                + "\n"
            if Self.writeAll(c.fd, Array(reply.utf8)) {
                c.watching = true
                condition.broadcast()
            } else {
                drop(c)
            }
        }
    }

    /// Called with the lock held.
    private func drop(_ c: Client) {
        guard let i = clients.firstIndex(where: { $0 === c }) else { return }
        close(c.fd)
        clients.remove(at: i)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }
}
