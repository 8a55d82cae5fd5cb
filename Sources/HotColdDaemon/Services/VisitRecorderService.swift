import ServiceLifecycle

/// Stores visits on a thread of its own (``VisitRecorder``), started here and stopped by the
/// service group: after gpsd's input (no new arrivals), before the socket (the events a stored
/// visit releases still reach subscribers), with up to `grace` for what waits.
struct VisitRecorderService: Service {
    let recorder: VisitRecorder?
    var grace: Duration = .seconds(2)

    public func run() async throws {
        guard let recorder else {
            try? await gracefulShutdown()
            return
        }
        let loop = ThreadLoop.start(name: "hotcold.visits") { recorder.run() }
        try? await gracefulShutdown()
        recorder.stop(grace: grace)
        await loop.join(timeout: .seconds(1))
    }
}
