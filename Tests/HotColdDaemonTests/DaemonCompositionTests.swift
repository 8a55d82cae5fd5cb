import Foundation
import HotColdConfig
import HotColdCore
@testable import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import Logging
import ServiceLifecycle
import HotColdDaemonTesting
import Testing

/// The daemon built in process from a configuration (`Daemon.assemble`) and run as the
/// services of one `ServiceGroup`, as `hotcoldd` runs it: it reads a (scripted) gpsd, answers
/// on its socket, and on graceful shutdown stops its input, closes its clients and removes its
/// socket file, then closes the log.
@Suite(.offCooperativePool) struct DaemonCompositionTests {
    static let executor = ThreadTaskExecutor(name: "daemon-under-test")

    @Test func assembledPartsRunAsServicesAndShutDownInOrder() async throws {
        let dir = try TemporaryDirectory("composition")
        defer { dir.remove() }
        let gpsd = try FakeGPSD()
        defer { gpsd.stop() }
        var c = Configuration()
        c.gpsd.host = "127.0.0.1"
        c.gpsd.port = Int(gpsd.port)
        c.socket.path = dir.path("hc.sock")
        c.log.path = dir.path("events.jsonl")
        c.store.database = dir.path("state/hotcold.sqlite")
        c.tracking.mode = .hunt
        c.tracking.targets = ["-30.30,153.1030,Roadside Thing"]
        let logger = Logger(label: "test")
        let daemon = Daemon(configuration: c, configPath: nil, overrides: DaemonOverrides(), logger: logger)
        let parts = try daemon.assemble()
        #expect(parts.places != nil, "the store opened")
        #expect(FileManager.default.fileExists(atPath: c.socket.path), "listening once assembled")
        let group = ServiceGroup(configuration: .init(services: daemon.services(parts).map { .init(service: $0) }, logger: logger))
        // On a thread of its own: the parallel tests around this one may hold every thread of
        // the cooperative pool for a long while.
        let running = Task(executorPreference: Self.executor) { try await group.run() }

        // The checks block on sockets: run them on a thread of their own, so that they never
        // hold one of the few cooperative threads the services need (tests run in parallel).
        let socketPath = c.socket.path
        let (client, status) = try await Self.onThread { () throws -> (LineClient, StatusReply) in
            _ = try gpsd.waitForWatcher(timeout: 60)
            let t0 = Date(timeIntervalSince1970: 1_735_689_600)
            for s in 0..<3 {
                try gpsd.send(FakeGPSD.tpv(time: t0.addingTimeInterval(Double(s)), latitude: .number(-30.30), longitude: .number(153.10)))
            }
            let client = try LineClient(path: socketPath)
            _ = try client.line(ofClass: VersionReply.wireClass)
            var status = try client.call(.status, expecting: StatusReply.self)
            for _ in 0..<200 where status.counters.fixes < 3 {
                usleep(50_000)
                status = try client.call(.status, expecting: StatusReply.self)
            }
            return (client, status)
        }
        #expect(status.counters.fixes == 3 && status.targets.first?.target.name == "Roadside Thing", "\(status)")
        #expect(status.tracking.tiers == ["freezing", "chilly", "cold", "cool", "mild", "warm", "hot", "burning"])

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: c.socket.path), "the socket file is removed")
        #expect(try await Self.onThread { try client.readLine(timeout: 5) } == nil, "clients are closed")
        let logged = try String(contentsOfFile: c.log.path, encoding: .utf8)
        #expect(logged.contains(#""class":"PROXIMITY""#), "\(logged)")
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            Thread { done.resume(with: Result { try body() }) }.start()
        }
    }
}
