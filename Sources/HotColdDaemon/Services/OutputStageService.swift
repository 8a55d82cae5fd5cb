import ServiceLifecycle

/// The output stage's thread (``OutputStage``): numbers events and hands them to the socket,
/// the replays and the log's writer. Stops after the producers, handing on what is queued.
struct OutputStageService: Service {
    let stage: OutputStage

    public func run() async throws {
        let loop = ThreadLoop.start(name: "hotcold.output") { stage.run() }
        try? await gracefulShutdown()
        stage.finish()
        await loop.join(timeout: .seconds(2))
    }
}
