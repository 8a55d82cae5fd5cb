import Foundation
import HotColdCore
import HotColdMQTT
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The fleet through one broker: N simulated devices, each a real `hotcold-mqtt` process fed
/// by a replaying socket that speaks the daemon's protocol (the coffs-harbour roam's recorded
/// events, numbered), one real mosquitto, and one subscriber to `bench/+/+/event` in this
/// process. Latency is from the line's write on the device's socket to its arrival at the
/// subscriber (one clock: CLOCK_MONOTONIC in this process).
///
/// Two phases per N: a paced one (10 events/s per device, for latency) and a burst (every
/// device writes its events as fast as the bridge reads them, for events/s).
func benchMQTT() {
    guard MosquittoBroker.available else { print("mqtt: mosquitto not installed; skipped"); return }
    let bridge = Binaries.url("hotcold-mqtt")
    guard FileManager.default.isExecutableFile(atPath: bridge.path) else {
        print("mqtt: \(bridge.path) missing; build it (swift build -c release --product hotcold-mqtt)")
        return
    }
    let source = TestData.repo("Tests/Golden/coffs-harbour-roam.events.jsonl")
    let recorded = ((try? String(contentsOf: source, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    guard !recorded.isEmpty else { print("mqtt: no events in \(source.path)"); return }
    print("mqtt: hotcold-mqtt × N → mosquitto → 1 subscriber (\(recorded.count) recorded events per device, replayed)")
    for n in [1, 10, 50] {
        do {
            let paced = try FleetRun(devices: n, events: recorded, perDevice: 50, interval: 0.1, bridge: bridge).run()
            let burst = try FleetRun(devices: n, events: recorded, perDevice: 2000, interval: 0, bridge: bridge).run()
            let restart = try FleetRun(devices: n, events: recorded, perDevice: 100, interval: 0.1, bridge: bridge,
                                       brokerDown: (after: 4, for: 2)).run()
            print(String(format: "  N=%-3d paced 10 ev/s/device: latency p50 %.2f ms, p99 %.2f ms (%d events, %d lost)   burst: %.0f events/s (%d events in %.2f s, %d lost), p50 %.1f ms p99 %.1f ms",
                         n, paced.p50, paced.p99, paced.count, paced.lost,
                         burst.rate, burst.count, burst.seconds, burst.lost, burst.p50, burst.p99))
            print(String(format: "         paced with the broker down 2 s at 4 s (SIGTERM, restart): %d events, %d lost, %d duplicates, p50 %.1f ms, p99 %.1f ms",
                         restart.count, restart.lost, restart.duplicates, restart.p50, restart.p99))
        } catch {
            print("  N=\(n): \(error)")
        }
    }
}

private struct FleetResult {
    var p50: Double, p99: Double, count: Int, lost: Int, rate: Double, seconds: Double, duplicates: Int
}

/// One run: a broker, N replaying sockets, N bridges, one subscriber.
private final class FleetRun: @unchecked Sendable {
    let devices: Int
    let lines: [String]
    let perDevice: Int
    let interval: Double
    let bridge: URL
    private let lock = NSLock()
    private var sent: [[UInt64]]
    private var received: [[UInt64]]
    private var receivedCount = 0
    private var duplicates = 0
    /// When set, the broker is stopped `after` seconds into the run for `for` seconds.
    let brokerDown: (after: Double, for: Double)?

    init(devices: Int, events: [String], perDevice: Int, interval: Double, bridge: URL,
         brokerDown: (after: Double, for: Double)? = nil) throws {
        self.brokerDown = brokerDown
        self.devices = devices
        self.perDevice = perDevice
        self.interval = interval
        self.bridge = bridge
        // Number the recorded lines: "seq" after "class", as the daemon writes them.
        lines = (0..<perDevice).map { i in
            var raw = events[i % events.count]
            if let r = raw.range(of: #","seq":"#) {      // already numbered: renumber
                let end = raw[r.upperBound...].firstIndex { !$0.isNumber } ?? raw.endIndex
                raw.removeSubrange(r.lowerBound..<end)
            }
            guard let comma = raw.firstIndex(of: ",") else { return raw }
            return String(raw[..<comma]) + ",\"seq\":\(i + 1)" + String(raw[comma...])
        }
        sent = Array(repeating: Array(repeating: 0, count: perDevice + 1), count: devices)
        received = sent
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    func run() throws -> FleetResult {
        // The test harness saves persistence on every change (durability under kill -9); a broker
        // in service saves periodically, so the benchmark does too.
        let broker = try MosquittoBroker.start(extra: ["max_inflight_messages 100", "max_queued_messages 1000000",
                                                       "autosave_on_changes false", "autosave_interval 1800"])
        defer { broker.stop() }
        let dir = try TemporaryDirectory("mqtt-bench")
        defer { dir.remove() }
        let subscriber = try MosquittoClient(options: .init(host: "127.0.0.1", port: Int(broker.port), clientID: "bench-sub")) { [self] signal in
            guard case .message(let topic, let payload, _) = signal else { return }
            record(topic: topic, payload: payload)
        }
        try subscriber.start()
        // The client connects on its own thread: subscribe once it is connected (the session is
        // persistent, so the subscription outlives a broker restart).
        var subscribed = false
        for _ in 0..<100 where !subscribed {
            subscribed = (try? subscriber.subscribe("bench/+/+/event")) != nil
            if !subscribed { usleep(50_000) }
        }
        guard subscribed else { throw TestFailure("the benchmark's subscriber could not subscribe") }
        defer { subscriber.stop() }
        usleep(300_000)

        var feeders: [ReplaySocket] = []
        var processes: [Process] = []
        defer {
            for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        }
        for d in 0..<devices {
            let socketPath = dir.path("d\(d).sock")
            let feeder = try ReplaySocket(path: socketPath)
            feeders.append(feeder)
            let config = dir.path("d\(d).toml")
            try """
                [daemon]
                socket = "\(socketPath)"
                [broker]
                host = "127.0.0.1"
                port = \(broker.port)
                max_inflight = 100
                [topics]
                prefix = "bench"
                user = "fleet"
                device = "car\(d)"
                [bridge]
                state_directory = "\(dir.path("state\(d)"))"
                status_interval = 60
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = bridge
            p.arguments = ["--config", config]
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
            processes.append(p)
        }
        for f in feeders { try f.acceptBridge(timeout: 20) }
        usleep(500_000)
        let start = Self.now()
        let group = DispatchGroup()
        for (d, f) in feeders.enumerated() {
            group.enter()
            let thread = Thread { [self] in
                for (i, line) in lines.enumerated() {
                    let t = Self.now()
                    lock.withLock { sent[d][i + 1] = t }
                    f.send(line)
                    if interval > 0 { Thread.sleep(forTimeInterval: interval) }
                }
                group.leave()
            }
            thread.start()
        }
        if let down = brokerDown {
            Thread.sleep(forTimeInterval: down.after)
            broker.kill(SIGTERM)
            Thread.sleep(forTimeInterval: down.for)
            try broker.restart()
        }
        group.wait()
        let total = devices * perDevice
        let deadline = Date().addingTimeInterval(60)
        while lock.withLock({ receivedCount }) < total, Date() < deadline { usleep(20_000) }
        var latencies: [Double] = []
        var last: UInt64 = start
        lock.withLock {
            for d in 0..<devices {
                for s in 1...perDevice where received[d][s] != 0 {
                    latencies.append(Double(received[d][s] &- sent[d][s]) / 1e6)
                    last = max(last, received[d][s])
                }
            }
        }
        latencies.sort()
        func pct(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let seconds = Double(last &- start) / 1e9
        return FleetResult(p50: pct(0.5), p99: pct(0.99), count: latencies.count, lost: total - latencies.count,
                           rate: Double(latencies.count) / max(seconds, 1e-9), seconds: seconds,
                           duplicates: lock.withLock { duplicates })
    }

    /// `bench/fleet/carD/event` with `"seq":S`: first arrival only.
    private func record(topic: String, payload: [UInt8]) {
        let t = Self.now()
        guard let carRange = topic.range(of: "/car"), let slash = topic[carRange.upperBound...].firstIndex(of: "/"),
              let d = Int(topic[carRange.upperBound..<slash]), d < devices else { return }
        let text = String(decoding: payload.prefix(64), as: UTF8.self)
        guard let r = text.range(of: "\"seq\":") else { return }
        let digits = text[r.upperBound...].prefix { $0.isNumber }
        guard let s = Int(digits), s >= 1, s <= perDevice else { return }
        lock.withLock {
            if received[d][s] == 0 {
                received[d][s] = t
                receivedCount += 1
            } else {
                duplicates += 1
            }
        }
    }
}

/// A Unix socket that speaks just enough of the daemon's protocol for the bridge: a greeting,
/// `watch` answered with a `WATCH` reply and, with `since`, the lines given so far that are
/// numbered above it (as the daemon replays its log); `watch` `enable: false` holds the stream
/// (the bridge does so while its broker is away). Other requests are read and ignored.
private final class ReplaySocket: @unchecked Sendable {
    let listener: Int32
    private var client: Int32 = -1
    private let lock = NSLock()
    private var history: [(seq: Int, line: String)] = []
    private var live = false

    init(path: String) throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0, listen(listener, 4) == 0 else {
            throw TestFailure("bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if client >= 0 { close(client) }
        close(listener)
    }

    func acceptBridge(timeout: Double) throws {
        var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) == 1 else {
            throw TestFailure("no bridge connected within \(timeout) s")
        }
        client = accept(listener, nil, nil)
        write(#"{"class":"VERSION","release":"bench","proto_major":1,"proto_minor":3}"#)
        // Read what the bridge asks, so its sends never block; answer every watch.
        let fd = client
        let watching = DispatchSemaphore(value: 0)
        Thread { [self] in
            var buf = [UInt8](repeating: 0, count: 4096)
            var pending = ""
            while true {
                let n = recv(fd, &buf, buf.count, 0)
                if n <= 0 { return }
                pending += String(decoding: buf[..<n], as: UTF8.self)
                while let nl = pending.firstIndex(of: "\n") {
                    let request = String(pending[..<nl])
                    pending = String(pending[pending.index(after: nl)...])
                    guard request.contains(#""cmd":"watch""#) else { continue }
                    answerWatch(request)
                    watching.signal()
                }
            }
        }.start()
        guard watching.wait(timeout: .now() + timeout) == .success else {
            throw TestFailure("the bridge sent no watch within \(timeout) s")
        }
    }

    private func answerWatch(_ request: String) {
        lock.withLock {
            if request.contains(#""enable":false"#) {
                live = false
                write(#"{"class":"WATCH","enable":false}"#)
                return
            }
            let since = request.range(of: #""since":"#).flatMap { r in Int(request[r.upperBound...].prefix { $0.isNumber }) } ?? 0
            let replay = history.filter { $0.seq > since }
            write(#"{"class":"WATCH","enable":true,"since":\#(since),"replay":\#(replay.count)}"#)
            for h in replay { write(h.line) }
            live = true
        }
    }

    /// One numbered event line: kept for replays, and sent at once while the stream is live.
    func send(_ line: String) {
        let seq = line.range(of: #""seq":"#).flatMap { r in Int(line[r.upperBound...].prefix { $0.isNumber }) } ?? 0
        lock.withLock {
            history.append((seq, line))
            if live { write(line) }
        }
    }

    private func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { if errno == EINTR { continue }; return }
            off += n
        }
    }
}
