import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// What the daemon lends ``StoreExecutor`` for one client's request: that connection's staged
/// uploads and downloads (charged to its user's staging quota) and the engine's fix and radar.
struct DaemonStoreContext: StoreRequestContext {
    let commands: DaemonCommands
    let client: ClientInfo

    var lastFix: Coordinate? { commands.host.lastFixCoordinate }

    func friendsOnRadar() -> [FriendRadar.FriendState] { commands.host.nearbyFriends() }

    func takeUpload(_ id: String, purpose: UploadRequest.Purpose, command: String) throws -> Data {
        try commands.staging.take(id, purpose: purpose, client: client.id, command: command)
    }

    func stageDownload(_ produce: ((Data) throws -> Void) throws -> Void) throws -> (id: String, size: Int) {
        try commands.staging.export(client: client.id, user: DaemonCommands.user(client), produce)
    }

    /// The staged file becomes a kept photo, never read whole (``PhotoStore``).
    func keepPhoto(_ id: String, command: String) throws -> (content: SubmissionPhoto.Content, head: [UInt8]) {
        let kept = try commands.staging.keep(id, client: client.id, command: command)
        return (.file(id: kept.name, bytes: kept.bytes), kept.head)
    }

    func discardPhoto(_ content: SubmissionPhoto.Content) {
        if case .file(let name, _) = content { commands.staging.photos?.remove(name) }
    }
}
