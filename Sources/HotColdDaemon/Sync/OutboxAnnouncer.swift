import Foundation
import HotColdCore
import HotColdStore
import HotColdSyncProtocol
import Synchronization

/// Tells watchers when the outbox gains an item: a `QUEUED` event with the number waiting.
/// `hotcold-sync` watches for it, so a rating given over the socket goes out within seconds.
///
/// Called after every change made through the socket; it counts the pending items (one
/// indexed COUNT) and announces only when the number grew, so the sync process's own
/// deliveries (which shrink it) do not wake it again.
///
/// ```swift
/// let announcer = OutboxAnnouncer(store: store, server: server)
/// announcer.storeChanged()      // after a rating: {"class":"QUEUED","time":…,"pending":1}
/// ```
final class OutboxAnnouncer: Sendable {
    let store: Store
    let server: SocketServer
    private let lastCount = Mutex<Int>(0)

    init(store: Store, server: SocketServer) {
        self.store = store
        self.server = server
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
        let event = OutboxEvent(time: ISO8601.format(Date()), pending: count)
        guard let data = try? SyncWire.encoder().encode(event) else { return }
        _ = server.broadcast(line: String(decoding: data, as: UTF8.self),
                             filter: .watchers(className: "QUEUED", targetID: nil))
    }
}
