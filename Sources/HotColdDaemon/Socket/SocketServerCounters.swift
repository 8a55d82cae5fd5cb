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
    /// Connections refused at accept: too many clients in all, or for one user.
    public var connectionsRefused = 0
    /// Write commands refused because their user was over the write rate.
    public var writesRefused = 0
    /// The client cap in force (`maxClients`, lowered to fit the open-file limit).
    public var maxClients = 0

    public init() {}
}
