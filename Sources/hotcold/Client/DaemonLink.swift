import HotColdProtocol

/// How `hotcold` reaches hotcoldd: the protocol's line client, with its failures turned into
/// the CLI's errors, whose exit status ``ExitStatus`` chooses (69 when the daemon cannot be
/// reached, 77 when it refuses this user, …).
enum DaemonLink {
    /// Connects to `socket`, else `$HOTCOLD_SOCKET`, else the daemon's default path. When it
    /// cannot, the error names the socket tried and the ways out: another socket, and for the
    /// store commands (`offline`) a database file.
    static func connect(socket: String?, offline: Bool = false) throws -> LineClient {
        do { return try LineClient(path: LineClient.defaultPath(socket)) } catch { throw cliError(error, offline: offline) }
    }

    /// Runs `body` against the daemon, with its failures as `CLIError`s.
    static func run<T>(_ body: () throws(ClientError) -> T) throws -> T {
        do { return try body() } catch { throw cliError(error) }
    }

    static func cliError(_ e: ClientError, offline: Bool = false) -> CLIError {
        CLIError(message(for: e, offline: offline), code: ExitStatus(for: e))
    }

    /// The protocol's words, plus, when the daemon is not there at all, what to do about it.
    static func message(for e: ClientError, offline: Bool) -> String {
        guard case .cannotConnect(let path, let reason) = e, ExitStatus(for: e) == .unavailable else { return e.description }
        let ways = offline
            ? "start hotcoldd, name its socket with --socket PATH or $HOTCOLD_SOCKET, or work offline on a database file with --db PATH"
            : "start hotcoldd, or name its socket with --socket PATH or $HOTCOLD_SOCKET"
        return "cannot reach hotcoldd at \(path): \(reason); \(ways)"
    }
}
