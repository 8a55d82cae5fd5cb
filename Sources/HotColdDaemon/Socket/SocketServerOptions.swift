import Logging

/// Limits and behaviour of a `SocketServer`. The defaults suit the daemon.
struct SocketServerOptions: Sendable {
    /// Longest accepted input line, in bytes without its newline. Longer lines are refused with
    /// an `ERROR` line and discarded as they arrive, never buffered whole.
    var maxLineBytes = 64 * 1024
    /// Bytes of output a client may have waiting. A client whose queue would overflow is dropped.
    var queueLimitBytes = 1024 * 1024
    /// Connections beyond this are told so and closed at once. The server lowers it further
    /// to stay `descriptorReserve` below the process's open-file limit (`RLIMIT_NOFILE`), so
    /// clients can never take the descriptors gpsd, the log and the database need.
    var maxClients = 1024
    /// Descriptors kept free for everything that is not a client (see `maxClients`).
    var descriptorReserve = 128
    /// Connections one Unix user (uid) may hold at once; more are told so and closed.
    var maxClientsPerUser = 64
    /// Write commands one Unix user may send at once after a pause (the bucket's size)…
    var writeBurst = 20
    /// …and per second after that, across all of its connections.
    var writesPerSecond = 5.0
    /// How long a dropped client keeps receiving what is already queued (ending with the
    /// `ERROR` line that gives the reason) before its connection is closed regardless.
    var dropGrace: Duration = .seconds(2)
    /// How long `shutdown()` keeps flushing queued output before closing the clients.
    var shutdownFlushTimeout: Duration = .milliseconds(250)
    /// How a peer's uid becomes the name its changes are recorded under (nil: `#UID`). Called
    /// off the loop, once per uid a minute. The default asks the system's name service.
    var nameLookup: @Sendable (UInt32) -> String? = { PeerCredentials.recordName(uid: $0) }
    /// Connections, drops and errors are logged here.
    var logger = Logger(label: "hotcold.socket")

    init() {}
}
