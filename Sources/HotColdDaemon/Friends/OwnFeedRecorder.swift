import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore
import Logging
import Synchronization

/// Keeps this car's own finds in its feed: every ARRIVED at a place (not at a friend) and
/// every RECORD becomes a feed item of author `self`, with the event's number as its seq (so
/// the likes the bridge relays as `like_received` name it). A RECORD's item keeps the user
/// whose rating or note it is: `feed` lists it to that user (and the administrator) only. No `FEED` event announces it: the
/// ARRIVED or RECORD it comes from already went out to every watcher and bridge.
///
/// The publisher tells it of each numbered event under its lock, so this only queues; the
/// database writes happen on a queue of their own. At most `maxPending` wait; beyond that
/// the newest are not recorded and counted (`dropped`): the feed is a convenience, the
/// visits (stored before their ARRIVED leaves) are the record.
///
/// ```swift
/// let recorder = OwnFeedRecorder(store: store, logger: logger)
/// publisher.observe { event, seq in recorder.published(event, seq: seq) }
/// ```
final class OwnFeedRecorder: Sendable {
    let store: Store
    let logger: Logger
    let maxPending: Int
    private let queue = DispatchQueue(label: "hotcold.own-feed")
    private let counts = Mutex<(pending: Int, dropped: Int)>((0, 0))

    init(store: Store, maxPending: Int = 1_024, logger: Logger) {
        self.store = store
        self.maxPending = maxPending
        self.logger = logger
    }

    /// The user whose record the event's item is (nil for an arrival: the car's, not a user's).
    static func owner(of event: PublishedEvent) -> String? {
        if case .record(let r) = event { r.user } else { nil }
    }

    /// The feed item an event makes, if any.
    static func item(for event: PublishedEvent, seq: Int) -> FeedItem? {
        switch event {
        case .engine(.arrived(let p)) where p.target.kind != .friend:
            return FeedItem(author: FriendID.selfAuthor, device: FriendID.selfAuthor, seq: seq, time: p.time, kind: "arrived",
                            place: .init(id: p.target.id, name: p.target.name, kind: p.target.kind.rawValue))
        case .record(let r):
            return FeedItem(author: FriendID.selfAuthor, device: FriendID.selfAuthor, seq: seq, time: r.time, kind: "record",
                            place: r.place, rating: r.rating, note: r.note)
        default:
            return nil
        }
    }

    /// Called by the publisher under its lock: queues the write, never waits.
    func published(_ event: PublishedEvent, seq: Int) {
        guard let item = Self.item(for: event, seq: seq) else { return }
        let owner = Self.owner(of: event)
        let (admitted, dropped) = counts.withLock { c -> (Bool, Int) in
            guard c.pending < maxPending else { c.dropped += 1; return (false, c.dropped) }
            c.pending += 1
            return (true, c.dropped)
        }
        guard admitted else {
            // Said on the first drop and then every 1,000th, not once per event.
            if dropped % 1000 == 1 {
                logger.error("own feed: \(maxPending) items waiting for the database; \(dropped) not kept (\(item.kind) at \(item.place.name), seq \(seq))")
            }
            return
        }
        queue.async { [self] in
            defer { counts.withLock { $0.pending -= 1 } }
            do {
                _ = try store.addFeedItem(item, owner: owner)
            } catch {
                logger.error("cannot keep own feed item \(seq) (\(item.kind) \(item.place.name)): \(error)")
            }
        }
    }

    /// Waits until the queued writes are done (tests, shutdown).
    func drain() { queue.sync {} }

    var dropped: Int { counts.withLock { $0.dropped } }
}
