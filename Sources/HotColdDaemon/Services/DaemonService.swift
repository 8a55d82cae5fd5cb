import ServiceLifecycle

/// The whole daemon as one service: set up, serve until graceful shutdown, tear down.
struct DaemonService: Service {
    let daemon: Daemon

    func run() async throws {
        try await daemon.serve()
    }
}
