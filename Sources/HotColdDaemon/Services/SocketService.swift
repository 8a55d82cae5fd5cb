import ServiceLifecycle

/// The client socket (bound and listening since the daemon was assembled, so clients that
/// come early wait in the backlog): its event loop starts here, and at shutdown it flushes
/// and closes every client and removes the socket file, once input has stopped.
struct SocketService: Service {
    let server: SocketServer
    let handler: any SocketCommandHandler

    public func run() async throws {
        try server.start(handler: handler)
        try? await gracefulShutdown()
        server.shutdown()
    }
}
