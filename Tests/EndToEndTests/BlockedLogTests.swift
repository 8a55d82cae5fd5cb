import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Nothing slow under the engine lock: the real daemon logging into a FIFO whose reader stops
/// for 10 s (a log that blocks, as a stalled SD card does). Fixes keep reaching the socket's
/// subscribers, the watchdog keeps being pinged, `status` answers and says the log is stalled,
/// and once the reader goes on the log holds every event the socket sent, in order.
@Suite(.offCooperativePool, .serialized) struct BlockedLogTests {
    typealias F = VisitFixtures

    /// Copies the FIFO to `copy` with a pipe buffer of one page, so a few events fill it.
    static let reader = """
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDONLY)
    fcntl.fcntl(fd, 1031, 4096)  # F_SETPIPE_SZ
    out = open(sys.argv[2], "ab", buffering=0)
    while True:
        b = os.read(fd, 65536)
        if not b:
            break
        out.write(b)
    """

    @Test func aLogThatBlocksHoldsUpNeitherSubscribersNorTheWatchdog() throws {
        let dir = try TemporaryDirectory("blocked-log"); defer { dir.remove() }
        let fifo = dir.path("events.fifo"), copy = dir.path("copy.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = dir.path("reader.py")
        try Self.reader.write(toFile: script, atomically: true, encoding: .utf8)
        let reader = try SpawnedProcess(["/usr/bin/python3", script, fifo, copy])
        defer { reader.signal(SIGCONT); reader.terminate() }
        let notify = try NotifyListener(path: dir.path("notify"))
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        // Forty places 150 m apart along the road: plenty of events (tiers, trends, arrivals).
        let places = (0..<40).flatMap { i in
            ["--target", "\(F.banana.lat + Double(i) * 150 / 111_320),\(F.banana.lon + 0.0003),Stop \(i)"]
        }
        let daemon = try DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--log", fifo] + places,
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        try c.send(#"{"cmd":"watch"}"#)
        _ = try c.read(class: "WATCH")
        try c.waitUntilGPSDConnected()
        #expect(notify.wait(for: "READY=1", timeout: 10))

        // Driving past them from 500 m south, ten receiver seconds a second.
        let track = SyntheticTrack(start: (F.banana.lat - 500 / 111_320, F.banana.lon),
                                   startTime: Date(timeIntervalSince1970: 1_735_689_600), bearing: 0, speed: 20)
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        let before = Self.collect(c, seconds: 4)
        #expect(before.count >= 10, "events flow before the stall: \(before.count)")

        // The reader stops: the pipe fills and the daemon's write(2) blocks.
        reader.signal(SIGSTOP)
        let pingsBefore = Self.pings(notify)
        let status = try Self.statusClient(daemon)
        let stalled = Self.collect(c, seconds: 10, status: status)
        let pingsDuring = Self.pings(notify) - pingsBefore
        #expect(stalled.events.count >= before.count, "events flow while the log is blocked: \(stalled.events.count) in 10 s, \(before.count) in 4 s before")
        #expect(stalled.longestSilence < 2, "longest wait for an event while the log is blocked: \(stalled.longestSilence) s")
        #expect(pingsDuring >= 5, "watchdog pings in 10 s of a blocked log: \(pingsDuring)")
        #expect(stalled.statusAnswered, "status answers while the log is blocked")
        #expect(stalled.sawStall, "status says the log is stalled: \(stalled.lastLog)")

        // The reader goes on: everything the socket sent reaches the log, in order.
        reader.signal(SIGCONT)
        let after = Self.collect(c, seconds: 2)
        feeder.stop()
        let sent = (before.events + stalled.events + after.events).compactMap { $0["seq"] as? Int }
        var logged: [Int] = []
        let deadline = Date().addingTimeInterval(20)
        repeat {
            usleep(200_000)
            logged = ((try? String(contentsOfFile: copy, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { LineClient.object(String($0))?["seq"] as? Int }
        } while !Set(sent).isSubset(of: Set(logged)) && Date() < deadline
        #expect(Set(sent).isSubset(of: Set(logged)), "\(Set(sent).subtracting(logged).count) of \(sent.count) events missing from the log")
        #expect(logged == logged.sorted() && Set(logged).count == logged.count, "the log is in order, without repeats")
        let finalStatus = try VisitFixtures.status(status)
        let log = finalStatus["log"] as? [String: Any] ?? [:]
        #expect(log["dropped"] as? Int == 0 && log["lines_lost"] as? Int == 0, "\(log)")
        print("blocked log: \(before.count) events in 4 s before, \(stalled.events.count) in 10 s blocked (longest silence \(String(format: "%.2f", stalled.longestSilence)) s), \(pingsDuring) watchdog pings; engine latency p99 \(((finalStatus["latency_us"] as? [String: Any])?["p99"] as? Double) ?? -1) µs")
    }

    struct Window {
        var events: [[String: Any]] = []
        var longestSilence: Double = 0
        var statusAnswered = true
        var sawStall = false
        var lastLog: [String: Any] = [:]
        var count: Int { events.count }
    }

    static func statusClient(_ daemon: DaemonProcess) throws -> LineClient {
        let s = try daemon.connect()
        _ = try s.read(class: "VERSION")
        return s
    }

    /// Events for `seconds`; with `status`, asks for STATUS every second meanwhile.
    static func collect(_ c: LineClient, seconds: Double, status: LineClient? = nil) -> Window {
        var w = Window()
        let start = Date()
        var last = start
        var nextStatus = start
        while Date().timeIntervalSince(start) < seconds {
            if let status, Date() >= nextStatus {
                nextStatus = Date().addingTimeInterval(1)
                if let s = try? VisitFixtures.status(status) {
                    w.lastLog = s["log"] as? [String: Any] ?? [:]
                    if (w.lastLog["stalled_s"] as? Double ?? 0) >= 1 || (w.lastLog["queued"] as? Int ?? 0) > 0 { w.sawStall = true }
                } else {
                    w.statusAnswered = false
                }
            }
            guard let line = try? c.readLine(timeout: 0.2), let o = LineClient.object(line),
                  ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"].contains(o["class"] as? String ?? "") else { continue }
            let now = Date()
            w.longestSilence = max(w.longestSilence, now.timeIntervalSince(last))
            last = now
            w.events.append(o)
        }
        w.longestSilence = max(w.longestSilence, Date().timeIntervalSince(last))
        return w
    }

    static func pings(_ n: NotifyListener) -> Int {
        _ = n.wait(for: "\u{0}never", timeout: 0.05)
        return n.messages.filter { $0.split(separator: "\n").contains("WATCHDOG=1") }.count
    }
}
