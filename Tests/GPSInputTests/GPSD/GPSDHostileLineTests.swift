import CGPS
import Foundation
@testable import GPSInput
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Lines on which libgps 3.22's `gps_unpack` loops forever (found by `scripts/fuzz`, target
/// tpv-engine): one of them from gpsd, or from anything listening on gpsd's port, froze the
/// source's reader thread and so the daemon's tracking.
@Suite("gpsd lines that hang libgps", .offCooperativePool)
struct GPSDHostileLineTests {
    static let hangingLines = [
        #"{7"class":"TPV""#,
        #"{x"class":"TPV"}"#,
        #"{"class":"TPV""class":"TPV""#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":7}]}"#,
        // Well-formed JSON of a class the source reads: an object libgps fails on, then the
        // class tag again (as a member, inside a key, or in a second object on the line).
        #"{"class":"TPV","mode":"x","class":"TPV"}"#,
        #"{"class":"TPV","\#(String(repeating: "m", count: 31))":7,"class":"SKY"}"#,
        #"{"class":"TPV","mode":"x","a\"class":"TPV"}"#,
        #"{"class":"WATCH","enable":"x","b":{"class":"TPV"}}"#,
    ]

    @Test("the guard refuses the lines that hang libgps", arguments: hangingLines)
    func guardRefuses(line: String) {
        #expect(!GPSDLineGuard.accepts(Array(line.utf8)[...]))
    }

    @Test("the guard accepts every TPV, SKY and WATCH line gpsd 3.22 wrote for the recorded logs")
    func guardAcceptsRealGPSD() throws {
        let dir = TestData.sharedData.appendingPathComponent("gpsd-logs")
        var checked = 0
        for name in ["replay-gpsd-3.22/bt451.log.tpv.jsonl", "bt451.log.chk", "quectel-eg25-g.log.chk", "haicom-305N.log.chk"] {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            for line in bytes.split(separator: 0x0A) {
                let text = String(decoding: line, as: UTF8.self)
                guard text.hasPrefix(#"{"class":"TPV""#) || text.hasPrefix(#"{"class":"SKY""#)
                        || text.hasPrefix(#"{"class":"WATCH""#) else { continue }
                #expect(GPSDLineGuard.accepts(line), "refused: \(text)")
                checked += 1
            }
        }
        #expect(checked > 100)
        #expect(GPSDLineGuard.accepts(Array(#"{"class":"TPV","mode":3}"#.utf8 + [0x0D])[...]), "a CR before the LF is gpsd's")
        #expect(!GPSDLineGuard.accepts(Array(#"{"class":"VERSION","release":"3.22"}"#.utf8)[...]), "unused classes stay out")
    }

    /// Found by `scripts/fuzz` (tpv-engine): libgps reads this time as year -1; the fix went on
    /// into a GPS event whose `"time":"00-1-12-31T…"` no client could parse back.
    @Test("a TPV whose time libgps reads as before year 1 is untimed, not a fix")
    func timeBeforeYearOneIsUntimed() {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        var line = Array(#"{"class":"TPV","device":"/dev/pts/4","mode":3,"time":"0x020-03-18T13:28:19.800Z","lat":41.57,"lon":-93.75}"#.utf8CString)
        #expect(GPSDLineGuard.accepts(Array(line.dropLast().map { UInt8(bitPattern: $0) })[...]))
        _ = line.withUnsafeMutableBufferPointer { gps_unpack($0.baseAddress!, data) }
        let input = GPSDFixTranslation.input(from: data, skySeen: false, receivedAt: ContinuousClock.now)
        guard case .untimed(let mode, _)? = input else {
            Issue.record("expected .untimed, got \(String(describing: input))")
            return
        }
        #expect(mode == .threeD)
    }

    @Test("a hostile gpsd sending lines that hang libgps: the source skips them and delivers the next fix")
    func sourceSurvivesHangingLines() throws {
        let server = try OneShotTCPServer()
        let lines = [#"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"#,
                     #"{"class":"WATCH","enable":true,"json":true}"#]
            + Self.hangingLines
            + [#"{"class":"TPV","device":"/dev/x","mode":2,"time":"2024-03-01T02:03:04.000Z","lat":-30.2748,"lon":153.1338}"#]
        server.serve(lines.joined(separator: "\n") + "\n")
        let source = GPSDSource(host: "127.0.0.1", port: Int(server.port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop(); server.close() }
        let got = inbox.wait(timeout: 10) { $0.contains { $0.input.fix?.coordinate?.latitude == -30.2748 } }
        #expect(got, "the fix after the hanging lines never arrived: \(inbox.all.map(\.input))")
    }
}

/// A loopback TCP server that accepts one client, writes the given text, and keeps the
/// connection open until closed (like a gpsd that has nothing more to say).
final class OneShotTCPServer: @unchecked Sendable {
    struct ListenError: Error { var errno: Int32 }
    let port: UInt16
    private let listener: Int32
    private var client: Int32 = -1
    private let lock = NSLock()

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            Glibc.close(fd)
            throw ListenError(errno: errno)
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        listener = fd
        port = UInt16(bigEndian: addr.sin_port)
    }

    func serve(_ text: String) {
        Thread.detachNewThread { [self] in
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            lock.withLock { client = fd }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    func close() {
        lock.withLock {
            if client >= 0 { Glibc.close(client) }
            client = -1
        }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}
