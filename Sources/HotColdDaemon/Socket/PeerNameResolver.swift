import Dispatch
import Synchronization

/// Resolves a peer's uid to the name its changes are recorded under, off the socket's loop:
/// the name service (files, but also LDAP or sssd) may take seconds, and the loop must
/// never wait on it. Answers are cached for `ttl`, so only a uid's first connection in a
/// while waits for a lookup, and that wait delays only that connection's greeting.
final class PeerNameResolver: Sendable {
    private struct Cached { var name: String?; var until: ContinuousClock.Instant }
    private let cache = Mutex<[UInt32: Cached]>([:])
    private let queue = DispatchQueue(label: "hotcold.socket.names")
    private let ttl: Duration
    private let lookup: @Sendable (UInt32) -> String?

    init(ttl: Duration = .seconds(60), lookup: @escaping @Sendable (UInt32) -> String? = PeerCredentials.recordName) {
        self.ttl = ttl
        self.lookup = lookup
    }

    /// The cached answer, if fresh: `.some(nil)` means "known to have no name".
    func cached(_ uid: UInt32) -> String?? {
        let now = ContinuousClock.now
        return cache.withLock { c -> String?? in
            guard let hit = c[uid], hit.until > now else { return .none }
            return .some(hit.name)
        }
    }

    /// Looks `uid` up on the resolver's queue and calls `done` there with the answer.
    func resolve(_ uid: UInt32, _ done: @escaping @Sendable (String?) -> Void) {
        queue.async { [self] in
            if let hit = cached(uid) { done(hit); return }
            let name = lookup(uid)
            cache.withLock { c in
                if c.count > 4096 { c.removeAll() }
                c[uid] = Cached(name: name, until: .now + ttl)
            }
            done(name)
        }
    }
}
