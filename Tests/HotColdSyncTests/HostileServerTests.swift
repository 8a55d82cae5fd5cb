import Foundation
import HotColdSync
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The server is not trusted with the sync's memory or time: against a server that sends an
/// endless body, a gzip bomb, a 2 GB Content-Length then a trickle, or a byte a second, the
/// built `hotcold-sync --once` stops within its deadline, small, with a message naming the
/// server's fault; and the client really stops each transfer (the server sees it hang up).
///
/// `HOTCOLD_SYNC_UNDER_TEST=/path/to/hotcold-sync` runs the process tests against another
/// build (an older one, for before/after figures; it is killed at 20 s or 1 GiB).
@Suite(.offCooperativePool, .serialized) struct HostileServerTests {
    /// `--timeout`: the deadline of each exchange.
    static let deadline = 5.0
    /// Starting a debug build and its handshake with the daemon, on shared cores.
    static let slack = 8.0
    /// The goal: under 64 MB.
    static let rssLimit = 64_000_000
    /// A sync's own work is well under a second of CPU; the old client spent 37 s on the bomb.
    static let cpuLimit = 3.0

    static let underTest = ProcessInfo.processInfo.environment["HOTCOLD_SYNC_UNDER_TEST"]

    static let faults: [(mode: String, message: String)] = [
        ("endless", "the server sent more than 16 MiB"),
        ("gzip-bomb", "the server sent a body that expands past 100 times its compressed size"),
        ("lying-length", "the server announced Content-Length 2000000000, over the cap of 16 MiB"),
        ("drip", "the server did not finish within 5 s"),
    ]

    @Test(arguments: faults)
    func syncStopsSmallAndSaysWhy(mode: String, message: String) async throws {
        let server = try HostileServer(mode: mode); defer { server.stop() }
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(try FreePort.tcp())", "--target", "-30.30,153.10,Somewhere"])
        defer { daemon.stop() }
        let config = daemon.dir.path("sync.toml")
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        // No retries within the sync: one exchange, one deadline. (An older build has no
        // --max-wait; it retries within its minute and meets the kill.)
        let once = Self.underTest == nil ? ["--max-wait", "0"] : []
        let m = try MeasuredProcess.run(
            Self.underTest.map { URL(fileURLWithPath: $0) } ?? Binaries.url("hotcold-sync"),
            ["--once", "--config", config, "--socket", daemon.socketPath, "--api", server.url.absoluteString,
             "--allow-http-loopback", "--timeout", "\(Int(Self.deadline))"] + once,
            stderr: daemon.dir.path("sync.stderr"), killAfter: Self.deadline + 15)
        print("FIGURES hotcold-sync --once against \(mode): \(m.summary)")
        #expect(!m.killed && m.status == 1, "\(m.summary)\n\(m.stderr)")
        #expect(m.stderr.contains(message), "\(m.stderr)")
        #expect(m.wallSeconds < Self.deadline + Self.slack, "\(m.summary)")
        #expect(m.peakRSSBytes < Self.rssLimit, "\(m.summary)")
        #expect(m.cpuSeconds < Self.cpuLimit, "\(m.summary)")
    }

    /// The service (not --once) in the middle of a dripping exchange: SIGTERM ends the
    /// request, shuts the HTTP client down and exits 0 at once, not at the deadline.
    @Test func theServiceStopsMidExchangeOnSIGTERM() async throws {
        let server = try HostileServer(mode: "drip"); defer { server.stop() }
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(try FreePort.tcp())", "--target", "-30.30,153.10,Somewhere"])
        defer { daemon.stop() }
        let config = daemon.dir.path("sync.toml")
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let m = try MeasuredProcess.run(
            Binaries.url("hotcold-sync"),
            ["--config", config, "--socket", daemon.socketPath, "--api", server.url.absoluteString,
             "--allow-http-loopback", "--timeout", "60", "--interval", "3600"],
            stderr: daemon.dir.path("sync.stderr"), killAfter: 40, signal: (SIGTERM, 4))
        print("FIGURES hotcold-sync service, SIGTERM 4 s into a dripping exchange: \(m.summary)")
        #expect(!m.killed && m.status == 0, "\(m.summary)\n\(m.stderr)")
        #expect(m.wallSeconds < 4 + Self.slack, "\(m.summary)")
        #expect(m.stderr.contains("stopped"), "\(m.stderr)")
        #expect(try await server.connections().first.map { $0.sent > 0 } == true, "the exchange had begun")
    }

    /// In a process that goes on living: the request ends at the cap or the deadline, and the
    /// transfer with it (the server's next writes fail), rather than reading on unseen.
    @Test(arguments: [("endless", 2.0), ("lying-length", 2.0), ("drip", 2.0)])
    func theTransferReallyStops(mode: String, timeout: Double) async throws {
        let server = try HostileServer(mode: mode); defer { server.stop() }
        let client = try APIClient(baseURL: server.url, timeout: timeout, allowHTTPLoopback: true)
        let started = ContinuousClock.now
        await #expect(throws: TransportError.self) {
            try await client.send(APIRequest(method: "GET", path: "bigthings", maxResponseBytes: APIRequest.catalogueLimit))
        }
        let took = ContinuousClock.now - started
        // Generous: this process's cooperative threads are shared with the suites running
        // alongside (the process test above holds the tight bound).
        #expect(took < .seconds(timeout + 8), "\(took)")
        // The server notices on its next write (every 100 ms, or every second for the drip).
        var hungUp = false
        for _ in 0..<50 where !hungUp {
            hungUp = try await server.connections().first?.hungUp == true
            if !hungUp { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(hungUp, "the server kept sending after the client gave up")
        await client.shutdown()
    }

    @Test func theErrorsNameTheServersFault() async throws {
        for (mode, cap, message) in [("endless", 1 << 20, "the server sent more than 1 MiB"),
                                     ("gzip-fine", 1 << 20, "the server sent a body that expands past 1 MiB"),
                                     ("gzip-bomb", 16 << 20, "the server sent a body that expands past 100 times its compressed size"),
                                     ("lying-length", 16 << 20, "the server announced Content-Length 2000000000, over the cap of 16 MiB"),
                                     ("drip", 1 << 20, "the server did not finish within 1 s")] {
            let server = try HostileServer(mode: mode); defer { server.stop() }
            let client = try APIClient(baseURL: server.url, timeout: mode == "drip" ? 1 : 20, allowHTTPLoopback: true)
            do {
                let r = try await client.send(APIRequest(method: "POST", path: "bigthings/api:banana/ratings", body: Data("{}".utf8),
                                                         maxResponseBytes: cap))
                Issue.record("\(mode): a reply of \(r.body.count) bytes")
            } catch {
                #expect(error.reason.contains(message), "\(mode): \(error.reason)")
                #expect(error.description.contains(server.url.absoluteString), "\(error.description)")
            }
            await client.shutdown()
        }
    }

    /// Decompression stays on for honest servers: a gzip body under the cap arrives whole.
    @Test func aCompressedReplyUnderTheCapArrivesDecompressed() async throws {
        let server = try HostileServer(mode: "gzip-fine"); defer { server.stop() }
        let client = try APIClient(baseURL: server.url, timeout: 20, allowHTTPLoopback: true)
        let r = try await client.send(APIRequest(method: "GET", path: "bigthings", maxResponseBytes: APIRequest.catalogueLimit))
        #expect(r.status == 200 && r.headers["content-encoding"] == "gzip")
        let catalogue = try JSONSerialization.jsonObject(with: r.body) as? [String: Any]
        #expect((catalogue?["things"] as? [[String: Any]])?.count == 20_000, "\(r.body.count) bytes")
        #expect(r.body.count > 1_000_000)
        await client.shutdown()
    }
}
