import ServiceLifecycle
import UnixSignals

/// SIGHUP: reopen the log (logrotate) and re-read the configuration.
struct ReloadService: Service {
    let reload: @Sendable () -> Void

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            reload()
        }
    }
}
