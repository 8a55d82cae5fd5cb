import Foundation
import HotColdFormats
import HotColdProtocol
import HotColdStore
import HotColdSync

/// The syncer over a database file, for the tests that drive ``Syncer`` against the reference
/// server without a daemon. The product syncs only through the daemon (``DaemonOutboxStore``):
/// `hotcold-sync` links no SQLite.
extension Store: OutboxStore {
    public var location: String { path }

    public func catalogueETag() throws -> String? { try syncValue(Store.catalogueETagKey) }

    public func pendingOutbox() throws -> OutboxPendingSummary { try outboxPendingSummary() }

    public func nextQueuedRequest(after afterID: Int64) throws -> QueuedRequest? {
        try nextPendingOutboxItem(after: afterID).map { QueuedRequest($0) }
    }

    public func queuedRequest(id: Int64) throws -> QueuedRequest? {
        try outboxItem(id: id).map { QueuedRequest($0, payload: Data()) }
    }
}
