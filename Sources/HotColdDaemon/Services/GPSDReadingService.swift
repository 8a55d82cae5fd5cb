import GPSInput
import Logging
import ServiceLifecycle

/// Reads gpsd's reports into the engine, and tells systemd the daemon is ready once it does; at
/// shutdown, says it is stopping and stops the input before anything downstream closes.
struct GPSDReadingService: Service {
    public let gpsd: GPSDSource
    public let host: EngineHost
    let notifier: SystemdNotifier
    let logger: Logger
    let startLine: String

    public func run() async throws {
        gpsd.start { [host] input in host.handle(input) }
        logger.info("\(startLine)")
        _ = notifier.ready(status: host.summary())
        try? await gracefulShutdown()
        _ = notifier.stopping()
        logger.info("stopping")
        gpsd.stop()
    }
}
