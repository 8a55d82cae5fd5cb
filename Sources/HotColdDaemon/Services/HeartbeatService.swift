import HotColdCore
import ServiceLifecycle

/// Once a second: lets the engine notice missing fixes (stale), pings the systemd watchdog
/// when every stage certifies progress — the engine (its lock could be taken) and the output
/// stage (idle, or it moved events since the last beat) — and refreshes STATUS= when it
/// changed. The log's writer is not certified: a stalled disk is the world's fault, not a hung
/// daemon (it shows in `status`), and restarting would not unstick it.
struct HeartbeatService: Service {
    public let host: EngineHost
    let stage: OutputStage
    let notifier: SystemdNotifier

    public func run() async throws {
        let interval: Duration = min(.seconds(1), notifier.watchdogPingInterval ?? .seconds(1))
        await cancelWhenGracefulShutdown {
            var lastStatus = ""
            while !Task.isCancelled {
                host.tick()
                if stage.certifyProgress() { _ = notifier.watchdogIfDue() }
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
