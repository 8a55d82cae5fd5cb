import GPSInput
import HotColdCore

/// Everything `hotcoldd` runs, built from one configuration by ``Daemon/assemble()`` and
/// not yet running: the store (when it opened), the socket (listening, with its command
/// handler), the event outputs, the engine's host and the gpsd source (not started).
/// ``Daemon/services(_:)`` turns it into the services that run it; a test can build one in
/// process, run those services in a `ServiceGroup` and shut them down.
public struct DaemonParts: Sendable {
    let places: StorePlaceRecords?
    let server: SocketServer
    let outputs: EventPublisher
    /// The engine's sink: numbers and fans out events on a thread of its own.
    let stage: OutputStage
    public let host: EngineHost
    let commands: DaemonCommands
    public let gpsd: GPSDSource
    let notifier: SystemdNotifier
    /// For the start-up line in the journal.
    let targetCount: Int
    /// Left after a clean stop (see ``StopMark``).
    let stopMark: StopMark

    /// Every service has stopped: the log is written and synced, every change committed and
    /// synced. Only now is the stop a clean one (the next start announces no loss).
    public func markCleanStop() {
        stopMark.stopped(lastSeq: outputs.sequence.status.last)
    }
}
