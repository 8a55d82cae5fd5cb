import Foundation
import HotColdConfig
import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import Logging
import ServiceLifecycle

/// The whole daemon in the test's own process, as `HummingbirdTesting` builds an application:
/// ``Daemon/assemble()`` from a configuration (a private directory for the socket, the log and
/// the database, with the bundled catalogue), its services run in a `ServiceGroup` on a thread
/// of their own, and requests sent over its real socket. No subprocess, no build of
/// `hotcoldd` needed; for the command tests that need only the socket and the store.
///
/// ```swift
/// let daemon = try InProcessDaemon()
/// let reply = try await daemon.ask(.status)
/// await daemon.stop()
/// ```
public final class InProcessDaemon: Sendable {
    public let dir: TemporaryDirectory
    public let configuration: Configuration
    public let parts: DaemonParts
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// One executor for every harness: the services' tasks never wait behind blocked tests.
    public static let executor = ThreadTaskExecutor(name: "in-process-daemon")

    /// `directory`: start on an earlier daemon's files (a restart); `overrides`: the flags;
    /// `logger`: where the daemon's log goes (a test that reads what it says).
    public init(directory: TemporaryDirectory? = nil, overrides: DaemonOverrides = DaemonOverrides(),
                logger: Logger = Logger(label: "in-process-daemon"),
         _ configure: (inout Configuration) -> Void = { _ in }) throws {
        let dir = try directory ?? TemporaryDirectory("in-process")
        var c = Configuration()
        // Nothing listens there: the daemon tracks without gpsd and says so in STATUS.
        c.gpsd.host = "127.0.0.1"
        c.gpsd.port = Int(try FreePort.tcp())
        c.socket.path = dir.path("hotcold.sock")
        c.log.path = dir.path("events.jsonl")
        c.store.database = dir.path("state/hotcold.sqlite")
        c.tracking.mode = .hunt
        c.tracking.targets = ["-30.30,153.10,Somewhere"]
        configure(&c)
        try overrides.apply(to: &c)
        let daemon = Daemon(configuration: c, configPath: nil, overrides: overrides, logger: logger)
        let parts = try daemon.assemble()
        let group = ServiceGroup(configuration: .init(services: daemon.services(parts).map { .init(service: $0) }, logger: logger))
        self.dir = dir
        self.configuration = c
        self.parts = parts
        self.group = group
        running = Task(executorPreference: Self.executor) { try await group.run() }
    }

    /// A new connection, past its greeting.
    public func connect() throws -> LineClient {
        let c = try LineClient(path: configuration.socket.path)
        _ = try c.line(ofClass: VersionReply.wireClass)
        return c
    }

    /// One request on a new connection; its reply line (an `ERROR` included). Blocking socket
    /// work runs on a thread of its own, never on the few threads of the shared pool.
    public func ask(_ request: Request, timeout: Double = 60) async throws -> String {
        try await ask(request.line, timeout: timeout)
    }

    public func ask(_ line: String, timeout: Double = 60) async throws -> String {
        let path = configuration.socket.path
        return try await Self.onThread {
            let c = try LineClient(path: path)
            _ = try c.line(ofClass: VersionReply.wireClass)
            try c.send(line)
            // The first line that answers (events are not sent: nothing watches here).
            guard let reply = try c.readLine(timeout: timeout) else { throw ClientError.closed(path: path, waitingFor: "a reply") }
            return reply
        }
    }

    /// Shuts the services down in order, then removes the directory. `clean`: leaves the
    /// clean-stop mark as `hotcoldd` does after its services stop (without it the next start
    /// on the same `directory` takes it for a power cut); `keep`: leaves the files for a restart.
    public func stop(clean: Bool = false, keep: Bool = false) async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        if clean { parts.markCleanStop() }
        if !keep { dir.remove() }
    }

    public static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            Thread { done.resume(with: Result { try body() }) }.start()
        }
    }
}
