import HotColdCore
import ServiceLifecycle

/// Once a second: lets the engine notice missing fixes (stale), pings the systemd watchdog
/// (only after the engine lock was taken, so a wedged engine stops the pings), and refreshes
/// STATUS= when it changed.
struct HeartbeatService: Service {
    let host: EngineHost
    let notifier: SystemdNotifier

    func run() async throws {
        let interval: Duration = min(.seconds(1), notifier.watchdogPingInterval ?? .seconds(1))
        await cancelWhenGracefulShutdown {
            var lastStatus = ""
            while !Task.isCancelled {
                host.tick()
                _ = notifier.watchdogIfDue()
                let s = host.summary()
                if s != lastStatus {
                    _ = notifier.status(s)
                    lastStatus = s
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
