import HotColdProtocol
import HotColdStore

/// How one decoded request is answered: where it runs and what it needs. ``DaemonCommands``
/// maps every request to one of these (its route table, ``DaemonCommands/route(_:for:)``)
/// and applies authorisation, write charging and the choice of thread once, for all.
enum CommandRoute {
    /// On the socket's loop thread: memory-only work with a bound of its own (STATUS, the
    /// radar, staging a chunk in a private file). Its lines are the reply.
    case loop(() throws -> [String])
    /// On the client's user's work queue, off the loop (anything that may wait: the engine's
    /// lock for a retarget, a database read for hunt ids). Its line is the reply, sent when ready.
    case work(@Sendable () throws -> String)
    /// As `work`, with the database: refused with `busy` when the daemon runs without one, and,
    /// for a change, when the database file was deleted or replaced under it. A store error
    /// becomes the protocol error of its code.
    case store(@Sendable (StoreExecutor) throws -> String)
}

/// Which commands are charged to their user's write rate (`SocketServer.chargeWrite`): every
/// change (`Request.changesState`) except the pieces of an upload, which only stage bytes in a
/// private file (the `import`, `submit` or `sync catalogue` that stores them is charged once);
/// `report`, which only replaces a service's line in memory; and `friend_fix`, which only
/// moves a friend on the radar (bounded at 200), and comes once a second per friend from the
/// bridge — ten friends would pass the 5-a-second write rate.
enum CommandClass {
    static func chargesWriteRate(_ request: Request) -> Bool {
        switch request.command {
        case .upload, .chunk, .report, .friendFix: false
        default: request.changesState
        }
    }
}
