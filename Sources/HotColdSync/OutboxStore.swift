import Foundation
import HotColdProtocol

/// What ``Syncer`` needs from the database: the catalogue's ETag and its all-or-nothing
/// replacement, and the outbox's state machine, its items as the protocol's ``QueuedRequest``
/// and its results as the protocol's ``SyncResult`` payloads (what the daemon replies).
///
/// Two implementations: ``DaemonOutboxStore`` over the daemon's socket, and the tests' store
/// over a database file (Tests/HotColdSyncTests) — on an installed system only the
/// daemon can open its database, so `hotcold-sync` asks it.
///
/// ```swift
/// let store: any OutboxStore = DaemonOutboxStore(socketPath: "/run/hotcold/hotcold.sock")
/// let report = await Syncer(store: store, client: client).sync()
/// ```
public protocol OutboxStore: Sendable {
    /// Where the data lives, for messages ("/var/lib/hotcold/hotcold.sqlite", "the daemon at /run/hotcold/hotcold.sock").
    var location: String { get }
    /// The ETag of the catalogue last applied, if any.
    func catalogueETag() throws -> String?
    /// Applies the server's full catalogue in one transaction (see ``Store/applyCatalogue(_:etag:source:user:)``).
    func applyCatalogue(_ data: Data, etag: String?, source: String, user: String) throws -> SyncResult.Catalogue
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
    func pendingOutbox() throws -> SyncResult.Pending
    /// The body of `item` (as ``nextQueuedRequest(after:)`` gave it) when it is too long to be
    /// held and is read from the store as it is sent; nil: the item's payload is the body.
    func bodyStream(for item: QueuedRequest) -> APIRequest.Stream?
}

extension OutboxStore {
    public func bodyStream(for item: QueuedRequest) -> APIRequest.Stream? { nil }
}
