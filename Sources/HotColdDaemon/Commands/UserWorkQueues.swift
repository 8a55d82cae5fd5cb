import Dispatch
import Synchronization

/// One serial queue per Unix user for the work answered off the socket's loop (store reads
/// and writes, exports, imports, retargets).
///
/// A user's own commands keep their order, but no user waits behind another's: sixty-four
/// exports queued by one reader run one after another on that reader's queue while a writer's
/// `fav` runs at once on its own (SQLite in WAL mode lets the pool's readers and its one
/// writer work side by side). Queues for users with nothing queued are dropped once there are
/// more than `retained`, so the table stays as small as the set of active users.
final class UserWorkQueues: Sendable {
    private struct Entry {
        let queue: DispatchQueue
        var pending: Int
    }
    private let queues = Mutex<[String: Entry]>([:])
    private let retained: Int

    init(retained: Int = 64) { self.retained = retained }

    /// Runs `body` on `user`'s queue, after that user's earlier work.
    func async(user: String, _ body: @escaping @Sendable () -> Void) {
        let queue = queues.withLock { q -> DispatchQueue in
            if q[user] == nil, q.count >= retained {
                for (name, e) in q where e.pending == 0 { q[name] = nil }
            }
            var e = q[user] ?? Entry(queue: DispatchQueue(label: "hotcold.user"), pending: 0)
            e.pending += 1
            q[user] = e
            return e.queue
        }
        queue.async {
            body()
            self.queues.withLock { q in q[user]?.pending -= 1 }
        }
    }

    /// Users with a queue now (for tests).
    var users: Int { queues.withLock { $0.count } }
}
