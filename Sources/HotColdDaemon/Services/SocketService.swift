import ServiceLifecycle

/// The client socket (already listening when the daemon was assembled): at shutdown,
/// flushes and closes every client and removes the socket file, once input has stopped.
struct SocketService: Service {
    let server: SocketServer

    func run() async throws {
        try? await gracefulShutdown()
        server.shutdown()
    }
}
