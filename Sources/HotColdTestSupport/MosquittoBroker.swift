import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real mosquitto broker for tests and benchmarks, on a free loopback port, with its own
/// configuration and persistence in a temporary directory.
///
/// ```swift
/// let broker = try MosquittoBroker.start()
/// defer { broker.stop() }
/// broker.kill(SIGTERM); try broker.restart()     // same port, same persistence
/// ```
///
/// The configuration: `listener PORT 127.0.0.1`, `allow_anonymous true`, persistence on (saved
/// on every change, so a killed broker loses little), plus any `extra` lines (TLS, passwords).
public final class MosquittoBroker: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: UInt16
    public let dir: TemporaryDirectory
    public let configPath: String
    private var process: SpawnedProcess?
    private let lock = NSLock()

    public static var available: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    static let executable = "/usr/sbin/mosquitto"

    public static func start(extra: [String] = [], anonymous: Bool = true) throws -> MosquittoBroker {
        let b = try MosquittoBroker(port: try FreePort.tcp(), extra: extra, anonymous: anonymous)
        try b.restart()
        return b
    }

    private init(port: UInt16, extra: [String], anonymous: Bool) throws {
        self.port = port
        dir = try TemporaryDirectory("mosquitto")
        configPath = dir.path("mosquitto.conf")
        let conf = [
            "listener \(port) 127.0.0.1",
            "allow_anonymous \(anonymous)",
            "persistence true",
            "persistence_location \(dir.url.path)/",
            "autosave_interval 1",
            "autosave_on_changes true",
            "max_queued_messages 100000",
            "log_dest file \(dir.path("mosquitto.log"))",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
        ] + (geteuid() == 0 ? ["user root"] : []) + extra
        try (conf.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    /// Starts (again) on the same port and persistence, and waits until it listens.
    public func restart(timeout: TimeInterval = 10) throws {
        lock.lock()
        defer { lock.unlock() }
        if let p = process, p.isRunning { return }
        let p = try SpawnedProcess([Self.executable, "-c", configPath])
        process = p
        let deadline = Date().addingTimeInterval(timeout)
        while !FreePort.isListeningTCP(port) {
            if !p.isRunning { throw Failure(description: "mosquitto exited: \(log)") }
            if Date() > deadline { throw Failure(description: "mosquitto not listening on \(port) after \(timeout) s: \(log)") }
            usleep(20_000)
        }
    }

    /// Sends `signal` (SIGTERM: saves persistence and exits; SIGKILL: a crash) and reaps it.
    public func kill(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        guard let p = process, p.isRunning else { return }
        p.signal(signal)
        if p.wait(timeout: 10) == nil {
            p.signal(SIGKILL)
            p.wait(timeout: 5)
        }
    }

    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    public var log: String { (try? String(contentsOfFile: dir.path("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Stops the broker and removes its directory.
    public func stop() {
        kill(SIGTERM)
        dir.remove()
    }
}

/// `mosquitto_sub` as an independent subscriber: a persistent session (`-c`, fixed `-i`) at QoS 1,
/// printing `RETAINED TOPIC PAYLOAD` lines to a file; restartable with the same session.
public final class MQTTSubscriber: @unchecked Sendable {
    public struct Message: Sendable, Equatable {
        public var retained: Bool
        public var topic: String
        public var payload: String

        public init(retained: Bool, topic: String, payload: String) {
            self.retained = retained
            self.topic = topic
            self.payload = payload
        }
    }

    public let port: UInt16
    public let clientID: String
    public let topics: [String]
    private let output: String
    private var process: SpawnedProcess?

    public init(port: UInt16, topics: [String], clientID: String = "test-sub-\(UUID().uuidString.prefix(6))") throws {
        self.port = port
        self.topics = topics
        self.clientID = clientID
        output = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-sub-\(clientID).txt").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: output)
    }

    public func start() throws {
        process = try SpawnedProcess(
            ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-c", "-i", clientID, "-q", "1",
             "-F", "%r %t %p"] + topics.flatMap { ["-t", $0] },
            stdout: output)
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    public func stop() {
        process?.terminate()
    }

    /// Everything received so far, in arrival order.
    public var messages: [Message] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            return Message(retained: parts[0] == "1", topic: String(parts[1]), payload: String(parts[2]))
        }
    }

    /// Waits until `done(messages)` holds; returns the messages either way.
    @discardableResult
    public func wait(timeout: TimeInterval = 20, until done: ([Message]) -> Bool) -> [Message] {
        let deadline = Date().addingTimeInterval(timeout)
        var m = messages
        while !done(m), Date() < deadline {
            usleep(50_000)
            m = messages
        }
        return m
    }
}
