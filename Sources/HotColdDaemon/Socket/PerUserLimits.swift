import Synchronization

/// What each Unix user (by uid, as the kernel reports it) may use of the socket: a number of
/// concurrent connections, and a write rate shared by all of that user's connections. Any
/// thread; the lock is held only for arithmetic.
///
/// A user with no connection left and a full bucket is forgotten, so the table holds only
/// users seen recently; reconnecting never refills a bucket early (an entry with tokens
/// spent stays until they have come back).
final class PerUserLimits: Sendable {
    struct Entry {
        var connections = 0
        var bucket: TokenBucket
    }

    let maxConnections: Int
    let writeBurst: Int
    let writesPerSecond: Double
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let entries = Mutex<[UInt32: Entry]>([:])

    init(maxConnections: Int, writeBurst: Int, writesPerSecond: Double) {
        self.maxConnections = max(1, maxConnections)
        self.writeBurst = writeBurst
        self.writesPerSecond = writesPerSecond
        self.start = clock.now
    }

    private var now: Duration { clock.now - start }

    /// Counts a new connection of `uid`; false (and nothing counted) when it already has
    /// `maxConnections`.
    func open(uid: UInt32) -> Bool {
        let now = self.now
        return entries.withLock { e in
            var entry = e[uid] ?? Entry(bucket: TokenBucket(burst: writeBurst, perSecond: writesPerSecond, now: now))
            guard entry.connections < maxConnections else { return false }
            entry.connections += 1
            e[uid] = entry
            return true
        }
    }

    func close(uid: UInt32) {
        let now = self.now
        entries.withLock { e in
            guard var entry = e[uid] else { return }
            entry.connections = max(0, entry.connections - 1)
            e[uid] = entry
            if e.count > 256 {
                e = e.filter { $0.value.connections > 0 || !$0.value.bucket.isFull(now: now) }
            }
        }
    }

    /// Takes one write from `uid`'s bucket: nil when admitted, else the wait until the next.
    func takeWrite(uid: UInt32) -> Duration? {
        let now = self.now
        return entries.withLock { e in
            var entry = e[uid] ?? Entry(bucket: TokenBucket(burst: writeBurst, perSecond: writesPerSecond, now: now))
            let wait = entry.bucket.take(now: now)
            e[uid] = entry
            return wait
        }
    }

    func connections(of uid: UInt32) -> Int { entries.withLock { $0[uid]?.connections ?? 0 } }
}
