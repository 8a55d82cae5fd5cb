import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Used while hotcoldd runs: every read and change goes through its socket, so a member of the
/// socket's group can use every command on an installed system, where only the daemon can read
/// its database. The daemon records changes for this client's Unix user (SO_PEERCRED); files
/// (imports, photos) travel as chunked uploads and exports as chunked downloads. `--here`
/// takes the daemon's last fix.
struct DaemonStoreBackend: StoreBackend {
    let connection: LineClient

    /// Whose changes these are, as the daemon records them (it decides from the peer's uid).
    var user: String { CurrentUser.name }

    /// Asked only when a command needs it (`--here`): the daemon's `status`, for its last fix.
    func currentPosition() throws -> Coordinate? {
        try DaemonLink.run { () throws(ClientError) in try connection.call(.status, expecting: StatusReply.self) }
            .gps.lastFix?.coordinate
    }

    /// An import or a search may take the daemon a while: a minute before giving up on it.
    func exchange(_ request: Request, replyClass: String) throws -> String {
        try connection.send(request)
        return try connection.line(ofClass: replyClass, timeout: 60)
    }

    func upload(_ data: Data, purpose: UploadRequest.Purpose, progress: ((Int) -> Void)?) throws -> String {
        try connection.upload(data, purpose: purpose, progress: progress)
    }

    func download(id: String, size: Int, progress: ((Int) -> Void)?) throws -> Data {
        try connection.download(id: id, size: size, progress: progress)
    }

    func failure(_ error: ClientError) -> CLIError { DaemonLink.cliError(error) }
}
