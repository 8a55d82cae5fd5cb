import Foundation
import HotColdProtocol
import Synchronization

/// Connections a trusted proxy has said act for another user (`act_for`): hotcold-web's
/// connection for a phone paired by jane is jane's — her records, her writer rule — so a note
/// typed on the phone is kept as hers, and a user taken out of the writers stops writing
/// through a phone paired earlier. Kept per connection until it closes.
final class ActingClients: Sendable {
    private let table = Mutex<[ClientID: ClientInfo]>([:])

    /// The identity a line from `client` is handled as.
    func identity(of client: ClientInfo) -> ClientInfo {
        table.withLock { $0[client.id] } ?? client
    }

    func forget(_ id: ClientID) { _ = table.withLock { $0.removeValue(forKey: id) } }

    /// The account `uid` as the user database has it now, for the proxy `proxy`. May block on
    /// the name service: called off the socket's loop. Nil when the account does not exist.
    static func account(_ uid: UInt32, via proxy: ClientInfo) -> ClientInfo? {
        guard let name = PeerCredentials.recordName(uid: uid), let gid = PeerCredentials.user(uid: uid)?.gid else { return nil }
        return ClientInfo(id: proxy.id, pid: proxy.pid, uid: uid, gid: gid,
                          groups: PeerCredentials.groups(ofUser: name, primary: gid), userName: name,
                          connectedAt: proxy.connectedAt, via: proxy.recordedName)
    }

    /// Records that `client`'s connection acts for `account` from now on.
    func act(_ client: ClientInfo, as account: ClientInfo) {
        table.withLock { $0[client.id] = account }
    }
}
