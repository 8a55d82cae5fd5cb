import Logging
import Synchronization

/// Collects log messages so tests can check what the daemon would tell the journal.
final class LogCapture: Sendable {
    let messages = Mutex<[(Logger.Level, String)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(capture: self) }
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.messages.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
