import Foundation

/// The state of an `EventLog`, for `status`.
public struct EventLogStatus: Sendable, Equatable {
    public var path: String
    /// False while lines are being lost (the file cannot be opened or written).
    public var isWriting: Bool
    /// What went wrong, for example `"cannot write /var/log/hotcold/events.jsonl: No space left on device"`.
    public var error: String?
    /// When the current failure began.
    public var failingSince: Date?
    /// Lines written since the log was created.
    public var linesWritten: Int
    /// Lines that could not be written since the log was created.
    public var linesLost: Int
}
