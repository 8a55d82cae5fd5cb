import Foundation
import HotColdProtocol

/// What the broker brought for the daemon, waiting to be sent (`friend_fix`, `feed_item`,
/// `like_received`), bounded.
///
/// Positions are coalesced: a friend's newer fix replaces one not yet sent (the radar wants the
/// newest, and one slow daemon write must not queue a backlog of old positions), at most
/// `maximumFriends` friends at once. Feed items and likes are never coalesced: they wait in
/// order, at most `capacity`; beyond that a new one is refused and counted (the caller logs it),
/// never one already accepted. Positions go first: they are what the driver looks at.
///
/// With a journal, each feed item and like is also written to disk as it is accepted, and the
/// journal emptied once every one of them has been settled (handed to the daemon, or refused by
/// it for good): see `InboxJournal`.
///
/// Filled by libmosquitto's thread, emptied by the forwarder's.
public final class FriendInbox: @unchecked Sendable {
    public enum Item: Sendable, Equatable {
        case fix(FriendFixRequest)
        case feed(FeedItem)
        case like(LikeReceivedRequest)
    }

    public struct Counts: Sendable, Equatable {
        /// Fixes replaced by a newer one before they were sent.
        public var superseded = 0
        /// Items refused because the inbox was full.
        public var refused = 0
        /// Journal writes that failed (the item is still queued, but would not survive a crash).
        public var journalFailures = 0

        public init(superseded: Int = 0, refused: Int = 0, journalFailures: Int = 0) {
            self.superseded = superseded
            self.refused = refused
            self.journalFailures = journalFailures
        }
    }

    public let capacity: Int
    public let maximumFriends: Int
    private let condition = NSCondition()
    private var fixes: [FriendID: FriendFixRequest] = [:]
    private var fixOrder: [FriendID] = []
    private var queue: [Item] = []
    private var head = 0
    private var counts = Counts()
    private var pokes = 0
    private let journal: InboxJournal?
    /// Feed items and likes accepted and not yet settled.
    private var unsettled = 0

    public init(capacity: Int = 10_000, maximumFriends: Int = 1_000, journal: InboxJournal? = nil) {
        self.capacity = capacity
        self.maximumFriends = maximumFriends
        self.journal = journal
    }

    /// Adds one item; false when it was refused (the inbox is full). `raw`: the message it was
    /// read from, journaled for a feed item or a like.
    @discardableResult
    public func put(_ item: Item, raw: (topic: String, payload: [UInt8])? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        switch item {
        case .fix(let f):
            if let old = fixes[f.who] {
                guard f.time > old.time else { return true }    // an older or repeated fix: nothing new
                counts.superseded += 1
            } else {
                guard fixes.count < maximumFriends else { counts.refused += 1; return false }
                fixOrder.append(f.who)
            }
            fixes[f.who] = f
        case .feed, .like:
            guard queue.count - head < capacity else { counts.refused += 1; return false }
            queue.append(item)
            unsettled += 1
            if let journal, let raw {
                do { try journal.append(topic: raw.topic, payload: raw.payload) } catch { counts.journalFailures += 1 }
            }
        }
        condition.signal()
        return true
    }

    /// A feed item or like taken earlier is done with (handed over, or refused for good); when
    /// none is left unsettled the journal is emptied.
    public func settled() {
        condition.lock()
        defer { condition.unlock() }
        unsettled = max(0, unsettled - 1)
        if unsettled == 0, head == queue.count, let journal {
            do { try journal.clear() } catch { counts.journalFailures += 1 }
        }
    }

    /// Puts an item that could not be sent yet back in front (a busy daemon).
    public func putBack(_ item: Item) {
        condition.lock()
        defer { condition.unlock() }
        switch item {
        case .fix(let f):
            if let newer = fixes[f.who], newer.time >= f.time { return }
            if fixes[f.who] == nil { fixOrder.insert(f.who, at: 0) }
            fixes[f.who] = f
        case .feed, .like:
            if head > 0 { head -= 1; queue[head] = item } else { queue.insert(item, at: 0) }
        }
    }

    /// Wakes `take` without an item (the following list changed, or stopping).
    public func poke() {
        condition.lock()
        pokes += 1
        condition.signal()
        condition.unlock()
    }

    public enum Taken: Sendable, Equatable {
        case item(Item)
        /// `poke()` was called (once however many pokes came).
        case poked
        case timedOut
    }

    /// The next item, waiting up to `timeout` seconds for one or a poke.
    public func take(timeout: TimeInterval) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while fixOrder.isEmpty, head == queue.count, pokes == 0 {
            if !condition.wait(until: deadline) { break }
        }
        if pokes > 0 { pokes = 0; return .poked }
        if !fixOrder.isEmpty {
            let who = fixOrder.removeFirst()
            return fixes.removeValue(forKey: who).map { .item(.fix($0)) } ?? .timedOut
        }
        guard head < queue.count else { return .timedOut }
        let item = queue[head]
        head += 1
        if head > 1024, head * 2 > queue.count { queue.removeFirst(head); head = 0 }
        return .item(item)
    }

    /// Items waiting (for `status`).
    public var waiting: Int { condition.withLock { fixOrder.count + queue.count - head } }
    public var counters: Counts { condition.withLock { counts } }
}
