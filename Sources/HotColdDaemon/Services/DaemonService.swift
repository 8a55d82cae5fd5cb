import ServiceLifecycle

/// The signal-handling group's one service: assembles the daemon, then runs its parts as the
/// services of an inner group (``Daemon/services(_:)``), which a graceful shutdown of this
/// one takes down in reverse order. Assembling in here means a SIGTERM during start-up is
/// already trapped, never lost.
struct DaemonService: Service {
    let daemon: Daemon

    public func run() async throws {
        try await daemon.serve()
    }
}
