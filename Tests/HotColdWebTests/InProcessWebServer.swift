import Foundation
import HotColdTestSupport
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
@testable import HotColdWeb

/// hotcold-web's application run in-process the way the executable runs it: in a service group,
/// and stopped the way SIGTERM stops it (a graceful shutdown), never by cancelling its task.
///
/// Why not cancel: a connection the kernel has handed to the listener but the server has not yet
/// taken is dropped with its NIO writer unfinished when the accept loop is cancelled, and
/// swift-nio traps on that ("Deinited NIOAsyncWriter without calling finish()"), taking the whole
/// test process down. A graceful shutdown closes the listener first and serves what it accepted.
final class InProcessWebServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(_ server: WebServer) async throws {
        let box = Mutex(0)
        let app = server.application { p in box.withLock { $0 = p } }
        var logger = Logger(label: "hotcold-web-test")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        task = Task { try await group.run() }
        let deadline = Date().addingTimeInterval(60)
        while box.withLock({ $0 }) == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        port = box.withLock { $0 }
        if port == 0 { stop(); throw TestFailure("hotcold-web did not start listening within 60 s") }
    }

    /// Shuts the server down gracefully and waits until it has; a test calls it from `defer`, off
    /// the cooperative pool (which the shutdown itself needs).
    func stop() {
        let done = DispatchSemaphore(value: 0)
        let group = group, task = task
        Task.detached {
            await group.triggerGracefulShutdown()
            _ = await task.result
            done.signal()
        }
        // Live streams end on the shutdown itself; a server that has not stopped after a minute is
        // stuck, and cancelling is the last resort (and the failure the suite then reports).
        if done.wait(timeout: .now() + 60) == .timedOut { task.cancel() }
    }
}
