#if canImport(Glibc)
import Glibc
#endif

/// Who is asking, as far as hotcold-web is concerned.
enum Caller: Sendable, Equatable {
    /// A paired device (its cookie holds a valid token).
    case paired(PairedDevice)
    /// No credentials, from this machine, as the local user `uid` (named by the kernel's
    /// socket table: ``LoopbackPeer``) who could open the daemon's socket itself: may read as
    /// that user, never write.
    case local(uid: UInt32)
    /// Anyone else: from elsewhere, or a local user who could not read the daemon's socket,
    /// or one hotcold-web cannot name. May see nothing but how to pair.
    case stranger

    var mayRead: Bool { self != .stranger }

    public var mayWrite: Bool {
        if case .paired(let d) = self { return d.writer }
        return false
    }

    /// The Unix user the daemon should take this caller's requests as (`act_for`): the user
    /// who paired the device, or the local user at this machine's browser. Nil when that is
    /// hotcold-web's own user (nothing to claim) or for a stranger (who reads nothing).
    var actsFor: UInt32? {
        switch self {
        case .paired(let d): d.uid
        case .local(let uid): uid == geteuid() ? nil : uid
        case .stranger: nil
        }
    }

    /// Identifies the caller for rate limiting: the device, else the address.
    func key(address: String) -> String {
        if case .paired(let d) = self { return "device:" + d.token }
        return "addr:" + address
    }
}
