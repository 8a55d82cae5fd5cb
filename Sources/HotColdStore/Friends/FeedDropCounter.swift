import Synchronization

/// Feed items the store let go to stay within its caps (a device over its share, the
/// largest holder's oldest when the feed is full), since the store was opened: counted after
/// each transaction commits, for `status`.
final class FeedDropCounter: Sendable {
    private let count = Mutex(0)

    func add(_ n: Int) {
        guard n > 0 else { return }
        count.withLock { $0 += n }
    }

    var total: Int { count.withLock { $0 } }
}
