import Synchronization

/// Counts the browsers following the live stream, against `live.max_clients`.
public final class LiveSlots: Sendable {
    public let limit: Int
    private let taken = Mutex(0)
    private let refusedCount = Mutex(0)
    private let droppedCount = Mutex(0)

    public init(limit: Int) { self.limit = limit }

    /// Takes a slot, or false when all are taken.
    public func acquire() -> Bool {
        let ok = taken.withLock { n -> Bool in
            guard n < limit else { return false }
            n += 1
            return true
        }
        if !ok { refusedCount.withLock { $0 += 1 } }
        return ok
    }

    public func release() { taken.withLock { $0 = max(0, $0 - 1) } }

    /// A browser that read too slowly and was cut off (it resumes by itself).
    public func countDropped() { droppedCount.withLock { $0 += 1 } }

    public var inUse: Int { taken.withLock { $0 } }
    public var refused: Int { refusedCount.withLock { $0 } }
    public var dropped: Int { droppedCount.withLock { $0 } }
}
