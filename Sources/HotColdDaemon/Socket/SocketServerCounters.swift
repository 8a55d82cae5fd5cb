/// A snapshot of `SocketServer` activity, for `status`.
struct SocketServerCounters: Sendable, Equatable {
    /// Connected now.
    var clients = 0
    /// Connections accepted since start.
    var accepted = 0
    /// Clients disconnected because their output queue overflowed (they stopped reading).
    var dropped = 0
    /// Complete input lines handed to the command handler.
    var linesIn = 0
    /// Output lines queued to clients (greetings, replies, broadcasts, errors).
    var linesOut = 0
    /// Input lines refused: too long or not UTF-8.
    var refused = 0
    /// Connections refused at accept: too many clients in all, or for one user.
    var connectionsRefused = 0
    /// Write commands refused because their user was over the write rate.
    var writesRefused = 0
    /// The client cap in force (`maxClients`, lowered to fit the open-file limit).
    var maxClients = 0

    init() {}
}
