import Foundation
import HotColdProtocol
import HotColdStore

/// What ``Syncer`` needs from the database: the catalogue's ETag and its all-or-nothing
/// replacement, and the outbox's state machine, its items as the protocol's ``QueuedRequest``.
///
/// Two implementations: ``Store`` itself (`hotcold sync --db`, offline work on a file, the
/// tests), and ``DaemonOutboxStore`` over the daemon's socket — on an installed system only the
/// daemon can open its database, so `hotcold-sync` asks it.
///
/// ```swift
/// let direct: any OutboxStore = try Store.open(path: "hc.sqlite")
/// let viaDaemon: any OutboxStore = DaemonOutboxStore(socketPath: "/run/hotcold/hotcold.sock")
/// ```
public protocol OutboxStore: Sendable {
    /// Where the data lives, for messages ("/var/lib/hotcold/hotcold.sqlite", "the daemon at /run/hotcold/hotcold.sock").
    var location: String { get }
    /// The ETag of the catalogue last applied, if any.
    func catalogueETag() throws -> String?
    /// Applies the server's full catalogue in one transaction (see ``Store/applyCatalogue(_:etag:source:user:)``).
    func applyCatalogue(_ data: Data, etag: String?, source: String, user: String) throws -> CatalogueSyncReport
    /// The first pending item after `afterID`, with its payload.
    func nextQueuedRequest(after afterID: Int64) throws -> QueuedRequest?
    /// Counts an attempt; false when the item is no longer pending.
    func beginOutboxAttempt(id: Int64, at now: Date) throws -> Bool
    func markOutboxDelivered(id: Int64, status: Int, response: Data,
                             catalogue: (placeID: String, rating: Double?, votes: Int?)?, at now: Date) throws
    func markOutboxFailed(id: Int64, status: Int?, message: String, response: Data?, at now: Date) throws
    func scheduleOutboxRetry(id: Int64, error: String, status: Int?, next: Date, notBefore: Date?) throws
    /// One item as it now stands, for the report (its payload may be left out).
    func queuedRequest(id: Int64) throws -> QueuedRequest?
    /// How many items wait, and when the first of them may go.
    func pendingOutbox() throws -> OutboxPendingSummary
}

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
