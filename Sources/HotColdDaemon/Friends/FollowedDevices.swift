import HotColdProtocol
import Synchronization

/// The devices anyone here follows, in memory: read from the store at start and kept in step
/// by `follow`/`unfollow`, so a `friend_fix` (up to one a second per friend) is admitted on
/// the socket's loop without a database read.
final class FollowedDevices: Sendable {
    private let set: Mutex<Set<String>>
    private let ownDevice: Mutex<FriendID?>

    init(_ initial: Set<String>, own: FriendID? = nil) {
        set = Mutex(initial)
        ownDevice = Mutex(own)
    }

    /// This car on the broker (its bridge's `report` `device`; kept in the database), nil
    /// while no bridge has said.
    var own: FriendID? { ownDevice.withLock { $0 } }

    /// Records what the bridge said; true when it is new.
    func setOwn(_ who: FriendID) -> Bool {
        ownDevice.withLock { o in
            guard o != who else { return false }
            o = who
            return true
        }
    }

    /// Whether `who` is this car itself (`self/…` always is).
    func isOwn(_ who: FriendID) -> Bool { who.user == FriendID.selfAuthor || who == own }

    /// Whether a feed item id names one of this car's own finds.
    func isOwn(_ item: FeedItemID) -> Bool {
        item.author == FriendID.selfAuthor || FriendID(user: item.author, device: item.device).map { $0 == own } == true
    }

    /// The one id of own item `seq`: `USER/DEVICE/SEQ` once the bridge has named the car.
    func ownItemID(seq: Int) -> String {
        "\(own?.description ?? "\(FriendID.selfAuthor)/\(FriendID.selfAuthor)")/\(seq)"
    }

    func contains(_ who: FriendID) -> Bool { set.withLock { $0.contains(who.description) } }

    /// Replaces the set with the store's (after a change).
    func reset(_ devices: Set<String>) { set.withLock { $0 = devices } }
}
