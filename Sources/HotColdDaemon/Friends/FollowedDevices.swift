import HotColdProtocol
import Synchronization

/// The devices anyone here follows, in memory: read from the store at start and kept in step
/// by `follow`/`unfollow`, so a `friend_fix` (up to one a second per friend) is admitted on
/// the socket's loop without a database read.
final class FollowedDevices: Sendable {
    private let set: Mutex<Set<String>>

    init(_ initial: Set<String>) { set = Mutex(initial) }

    func contains(_ who: FriendID) -> Bool { set.withLock { $0.contains(who.description) } }

    /// Replaces the set with the store's (after a change).
    func reset(_ devices: Set<String>) { set.withLock { $0 = devices } }
}
