import ServiceLifecycle

/// Holds the event log open while the daemon runs; closes it last, after every producer of
/// events has stopped (it is the first service started, so the last shut down).
struct EventOutputService: Service {
    let outputs: EventPublisher

    func run() async throws {
        try? await gracefulShutdown()
        outputs.log?.close()
    }
}
