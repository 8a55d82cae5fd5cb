import ArgumentParser
import HotColdProtocol

/// Where hotcoldd listens: the one `--socket` option of every command that talks to the daemon
/// (status, watch, hunt, roam, and the store commands while a daemon runs).
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "hotcoldd's socket. Default: $HOTCOLD_SOCKET, else /run/hotcold/hotcold.sock.",
        valueName: "PATH"), completion: .file())
    var socket: String?

    /// `--socket`, else `$HOTCOLD_SOCKET`, else the daemon's default path.
    var path: String { LineClient.defaultPath(socket) }

    /// `offline`: the command also works on a file with `--db`, so its error says so.
    func connect(offline: Bool = false) throws -> LineClient { try DaemonLink.connect(socket: socket, offline: offline) }
}
