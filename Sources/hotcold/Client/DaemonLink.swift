import HotColdProtocol

/// How `hotcold` reaches hotcoldd: the protocol's line client, with its failures turned into
/// the CLI's errors, whose exit status ``ExitStatus`` chooses (69 when the daemon cannot be
/// reached, 77 when it refuses this user, …).
enum DaemonLink {
    /// Connects to `socket`, else `$HOTCOLD_SOCKET`, else the daemon's default path.
    static func connect(socket: String?) throws -> LineClient {
        do { return try LineClient(path: LineClient.defaultPath(socket)) } catch { throw cliError(error) }
    }

    /// Runs `body` against the daemon, with its failures as `CLIError`s.
    static func run<T>(_ body: () throws(ClientError) -> T) throws -> T {
        do { return try body() } catch { throw cliError(error) }
    }

    static func cliError(_ e: ClientError) -> CLIError {
        CLIError(e.description, code: ExitStatus(for: e))
    }
}
