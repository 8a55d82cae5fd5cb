import Foundation
import HotColdCore
import HotColdStore
import HotColdProtocol
import Synchronization

/// Tells watchers when the outbox gains an item: a `QUEUED` event with the number waiting,
/// published like every other event (numbered, logged), so a subscriber resuming with
/// `since` sees it too.
/// `hotcold-sync` watches for it, so a rating given over the socket goes out within seconds.
///
/// Called after every change made through the socket; it counts the pending items (one
/// indexed COUNT) and announces only when the number grew, so the sync process's own
/// deliveries (which shrink it) do not wake it again.
///
/// ```swift
/// let announcer = OutboxAnnouncer(store: store, sink: publisher)
/// announcer.storeChanged()      // after a rating: {"class":"QUEUED","seq":…,"time":…,"pending":1}
/// ```
final class OutboxAnnouncer: Sendable {
    let store: Store
    let sink: any EventSink
    private let lastCount = Mutex<Int>(0)

    init(store: Store, sink: any EventSink) {
        self.store = store
        self.sink = sink
        lastCount.withLock { $0 = (try? store.outboxPendingSummary().count) ?? 0 }
    }

    /// Counts; announces when the number of waiting items grew.
    func storeChanged() {
        guard let count = try? store.outboxPendingSummary().count else { return }
        let grew = lastCount.withLock { last in
            defer { last = count }
            return count > last
        }
        guard grew else { return }
        sink.publish(.queued(QueuedEvent(time: Date(), pending: count)))
    }
}
