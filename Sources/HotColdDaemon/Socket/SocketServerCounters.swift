/// A snapshot of `SocketServer` activity, for `status`.
public struct SocketServerCounters: Sendable, Equatable {
    /// Connected now.
    public var clients = 0
    /// Connections accepted since start.
    public var accepted = 0
    /// Clients disconnected because their output queue overflowed (they stopped reading).
    public var dropped = 0
    /// Complete input lines handed to the command handler.
    public var linesIn = 0
    /// Output lines queued to clients (greetings, replies, broadcasts, errors).
    public var linesOut = 0
    /// Input lines refused: too long or not UTF-8.
    public var refused = 0

    public init() {}
}
