import ServiceLifecycle
import UnixSignals

/// SIGHUP: reopen the log (logrotate) and re-read the configuration.
///
/// `hangups` is trapped before anything starts (``Daemon/run()``): a SIGHUP that arrives while
/// the services are still starting waits in it instead of killing the daemon with the signal's
/// default action.
struct ReloadService: Service {
    let reload: @Sendable () -> Void
    var hangups: UnixSignalsSequence?

    public func run() async throws {
        let signals: UnixSignalsSequence
        if let hangups { signals = hangups } else { signals = await UnixSignalsSequence(trapping: .sighup) }
        for await _ in signals.cancelOnGracefulShutdown() {
            reload()
        }
    }
}
