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

    public func pendingOutbox() throws -> SyncResult.Pending { try outboxPendingSummary().payload }

    /// The whole report, as the database gives it (the daemon's reply is a summary of it).
    public func applyCatalogue(_ data: Data, etag: String?, source: String, user: String) throws -> SyncResult.Catalogue {
        let report: CatalogueSyncReport = try applyCatalogue(data, etag: etag, source: source, user: user)
        return report.payload
    }

    public func nextQueuedRequest(after afterID: Int64) throws -> QueuedRequest? {
        try nextPendingOutboxItem(after: afterID).map { QueuedRequest($0) }
    }

    public func queuedRequest(id: Int64) throws -> QueuedRequest? {
        try outboxItem(id: id).map { QueuedRequest($0, payload: Data()) }
    }
}
