/// Where published events go: numbered, then to the log and the socket's watchers
/// (``EventPublisher`` in the daemon; a recording sink in tests).
protocol EventSink: Sendable {
    /// Numbers and sends one event. Never blocks on a client; any thread. Events leave in the
    /// order of these calls.
    func publish(_ event: PublishedEvent)
}
