#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

/// What the broker brought for the daemon, waiting to be sent (`friend_fix`, `feed_item`,
/// `like_received`), bounded.
///
/// Positions are coalesced: a friend's newer fix replaces one not yet sent (the radar wants the
/// newest, and one slow daemon write must not queue a backlog of old positions), at most
/// `maximumFriends` friends at once. Feed items and likes are never coalesced: they wait in
/// order, at most `capacity` of them and `maximumBytes` of their journal lines (a flood of
/// 8 KiB items fills the bytes long before the count); beyond that a new one is refused and
/// counted (the caller logs it), never one already accepted. Positions go first: they are what
/// the driver looks at.
///
/// With a journal, each feed item and like is also written to disk as it is accepted. They are
/// settled (handed to the daemon, or refused by it for good) in the order they came, so what is
/// settled is always the journal's beginning: once a quarter of the budget of it is settled it
/// is cut off (`InboxJournal.dropPrefix`), and the journal is emptied when nothing is left. The
/// file thus stays under `restoreLimit` (1¼ × `maximumBytes`, at least the budget and 64 KiB):
/// see `InboxJournal`.
///
/// Filled by libmosquitto's thread, emptied by the forwarder's.
final class FriendInbox: @unchecked Sendable {
    enum Item: Sendable, Equatable {
        case fix(FriendFixRequest)
        case feed(FeedItem)
        case like(LikeReceivedRequest)
    }

    struct Counts: Sendable, Equatable {
        /// Fixes replaced by a newer one before they were sent.
        var superseded = 0
        /// Items refused because the inbox was full.
        var refused = 0
        /// Journal writes that failed (the item is still queued, but would not survive a crash).
        var journalFailures = 0
        /// Journal compactions (settled records cut off the file's beginning).
        var compactions = 0

        init(superseded: Int = 0, refused: Int = 0, journalFailures: Int = 0, compactions: Int = 0) {
            self.superseded = superseded
            self.refused = refused
            self.journalFailures = journalFailures
            self.compactions = compactions
        }
    }

    /// The default byte budget (`[friends] inbox_bytes`).
    static let defaultMaximumBytes = 4 << 20
    /// Settled journal bytes are cut off once there are this many at least (or a quarter of the
    /// budget, when that is more): fewer, larger copies, for a flash card's sake.
    static let compactionMinimum = 64 * 1024

    let capacity: Int
    let maximumFriends: Int
    let maximumBytes: Int
    private let condition = InboxCondition()
    private var fixes: [FriendID: FriendFixRequest] = [:]
    private var fixOrder: [FriendID] = []
    private var queue: [Item] = []
    private var head = 0
    private var counts = Counts()
    private var pokes = 0
    private let journal: InboxJournal?
    /// Feed items and likes accepted and not yet settled, in order: what each costs against the
    /// budget (its journal line) and the journal bytes its settling frees (its line and any
    /// records before it that were never queued). `held[heldHead...]` are unsettled.
    private var held: [(cost: Int, journalBytes: Int)] = []
    private var heldHead = 0
    private var heldBytes = 0
    /// Journal bytes at the file's beginning that are settled (not yet cut off).
    private var settledJournalBytes = 0
    /// Journal bytes of records read back at start and not queued (unreadable, refused): freed
    /// with the next record queued after them.
    private var strayJournalBytes = 0
    private var unsettled: Int { held.count - heldHead }

    init(capacity: Int = 10_000, maximumFriends: Int = 1_000, maximumBytes: Int = FriendInbox.defaultMaximumBytes,
                journal: InboxJournal? = nil) {
        self.capacity = capacity
        self.maximumFriends = maximumFriends
        self.maximumBytes = maximumBytes
        self.journal = journal
    }

    /// Adds one item; false when it was refused (the inbox is full). `raw`: the message it was
    /// read from, journaled for a feed item or a like.
    @discardableResult
    func put(_ item: Item, raw: (topic: String, payload: [UInt8])? = nil) -> Bool {
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
            let cost = raw.map { InboxJournal.line(topic: $0.topic, payload: $0.payload).count } ?? 0
            guard queue.count - head < capacity, heldBytes + cost <= maximumBytes else { counts.refused += 1; return false }
            var journalBytes = 0
            if let journal, let raw {
                do {
                    journalBytes = try journal.append(topic: raw.topic, payload: raw.payload) + strayJournalBytes
                    strayJournalBytes = 0
                } catch {
                    counts.journalFailures += 1
                }
            }
            queue.append(item)
            hold(cost: cost, journalBytes: journalBytes)
        }
        condition.signal()
        return true
    }

    private func hold(cost: Int, journalBytes: Int) {
        held.append((cost, journalBytes))
        heldBytes += cost
    }

    /// Settled journal bytes are cut off once there are this many.
    var compactionThreshold: Int { max(Self.compactionMinimum, maximumBytes / 4) }

    /// What a restart takes back from the journal at most: the file's own bound (the budget
    /// and a settled beginning not yet cut off, which comes back too: the daemon keeps each
    /// item once), so nothing this bridge journaled is dropped; a larger file (another
    /// version's, a smaller budget now) loses its newest records, counted.
    static func restoreLimit(maximumBytes: Int) -> Int {
        maximumBytes + max(compactionMinimum, maximumBytes / 4)
    }

    /// What a restart found in the journal: queued again in order without writing them again
    /// (they are in the file already), each read through `accept` (nil: not for the inbox any
    /// more). Those over `restoreLimit` are dropped and counted. Returns how many were queued
    /// and dropped. Call before anything else is put.
    func restore(_ accept: (_ topic: String, _ payload: [UInt8]) -> Item?) throws(AckStore.Failure) -> (queued: Int, dropped: Int) {
        guard let journal else { return (0, 0) }
        var queued = 0, dropped = 0
        condition.lock()
        defer { condition.unlock() }
        try journal.forEachRecord { record, length in
            guard let record, let item = accept(record.topic, record.payload) else {
                strayJournalBytes += length
                return
            }
            switch item {
            case .fix(let f):
                // Not journaled by this bridge; taken as a position all the same.
                if fixes[f.who] == nil, fixes.count < maximumFriends { fixOrder.append(f.who); fixes[f.who] = f }
                strayJournalBytes += length
            case .feed, .like:
                let cost = length
                guard queue.count - head < capacity, heldBytes + cost <= Self.restoreLimit(maximumBytes: maximumBytes) else {
                    dropped += 1
                    counts.refused += 1
                    strayJournalBytes += length
                    return
                }
                queue.append(item)
                hold(cost: cost, journalBytes: length + strayJournalBytes)
                strayJournalBytes = 0
                queued += 1
            }
        }
        if unsettled == 0 {
            do { try journal.clear() } catch { counts.journalFailures += 1 }
            strayJournalBytes = 0
        }
        condition.signal()
        return (queued, dropped)
    }

    /// A feed item or like taken earlier is done with (handed over, or refused for good), the
    /// oldest unsettled one: its journal record is settled, and the journal's settled beginning
    /// cut off once it is large enough; when none is left unsettled the journal is emptied.
    func settled() {
        condition.lock()
        defer { condition.unlock() }
        guard heldHead < held.count else { return }
        let done = held[heldHead]
        heldHead += 1
        heldBytes -= done.cost
        settledJournalBytes += done.journalBytes
        if heldHead > 1024, heldHead * 2 > held.count { held.removeFirst(heldHead); heldHead = 0 }
        guard let journal else { return }
        if unsettled == 0, head == queue.count {
            do { try journal.clear() } catch { counts.journalFailures += 1 }
            settledJournalBytes = 0
            strayJournalBytes = 0
        } else if settledJournalBytes >= compactionThreshold {
            do {
                try journal.dropPrefix(settledJournalBytes)
                settledJournalBytes = 0
                counts.compactions += 1
            } catch {
                counts.journalFailures += 1
            }
        }
    }

    /// Puts an item that could not be sent yet back in front (a busy daemon).
    func putBack(_ item: Item) {
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
    func poke() {
        condition.lock()
        pokes += 1
        condition.signal()
        condition.unlock()
    }

    enum Taken: Sendable, Equatable {
        case item(Item)
        /// `poke()` was called (once however many pokes came).
        case poked
        case timedOut
    }

    /// The next item, waiting up to `timeout` seconds for one or a poke.
    func take(timeout: TimeInterval) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        let deadline = InboxCondition.deadline(after: timeout)
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
    var waiting: Int { condition.withLock { fixOrder.count + queue.count - head } }
    /// Journal bytes of the feed items and likes not yet settled (against `maximumBytes`).
    var bytesHeld: Int { condition.withLock { heldBytes } }
    var counters: Counts { condition.withLock { counts } }
}
