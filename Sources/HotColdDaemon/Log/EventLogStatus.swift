import Foundation

/// The state of an `EventLog`, for `status`.
struct EventLogStatus: Sendable, Equatable {
    var path: String
    /// False while lines are being lost (the file cannot be opened or written).
    var isWriting: Bool
    /// What went wrong, for example `"cannot write /var/log/hotcold/events.jsonl: No space left on device"`.
    var error: String?
    /// When the current failure began.
    var failingSince: Date?
    /// Lines written since the log was created.
    var linesWritten: Int
    /// Lines that could not be written since the log was created.
    var linesLost: Int
    /// Lines waiting for the disk in the ``LogWriter``'s queue.
    var queued = 0
    /// Lines the writer gave up because too many waited (each hole has a GAP line in the file).
    var dropped = 0
    /// GAP markers written.
    var gaps = 0
    /// `fdatasync`s of the file (flash wears: grouped, never while nothing is logged).
    var syncs = 0
    /// How long the write in progress has not returned (a stalled disk), when 1 s or more.
    var stalledSeconds: Double?
}
