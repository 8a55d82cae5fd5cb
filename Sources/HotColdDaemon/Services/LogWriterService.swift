import ServiceLifecycle

/// The log's writer on its own thread (``LogWriter``): the first service started, so the last
/// stopped, after every producer of events; it writes what is queued (for up to a grace when
/// the disk refuses) and closes the log.
struct LogWriterService: Service {
    let writer: LogWriter
    var grace: Duration = .seconds(2)

    public func run() async throws {
        let loop = ThreadLoop.start(name: "hotcold.log-writer") { writer.run() }
        try? await gracefulShutdown()
        writer.finish(grace: grace)
        await loop.join(timeout: grace + .seconds(1))
    }
}
