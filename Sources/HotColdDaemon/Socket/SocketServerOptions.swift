import Logging

/// Limits and behaviour of a `SocketServer`. The defaults suit the daemon.
public struct SocketServerOptions: Sendable {
    /// Longest accepted input line, in bytes without its newline. Longer lines are refused with
    /// an `ERROR` line and discarded as they arrive, never buffered whole.
    public var maxLineBytes = 64 * 1024
    /// Bytes of output a client may have waiting. A client whose queue would overflow is dropped.
    public var queueLimitBytes = 1024 * 1024
    /// Connections beyond this are told so and closed at once.
    public var maxClients = 1024
    /// How long a dropped client keeps receiving what is already queued (ending with the
    /// `ERROR` line that gives the reason) before its connection is closed regardless.
    public var dropGrace: Duration = .seconds(2)
    /// How long `shutdown()` keeps flushing queued output before closing the clients.
    public var shutdownFlushTimeout: Duration = .milliseconds(250)
    /// Connections, drops and errors are logged here.
    public var logger = Logger(label: "hotcold.socket")

    public init() {}
}
