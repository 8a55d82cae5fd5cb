import Foundation
import HotColdProtocol

/// An outbox row as the `sync` command sends it to `hotcold-sync` (the one mapping, used by
/// the daemon and by `hotcold-sync` working on a database file).
extension QueuedRequest {
    /// The row as the wire carries it; `payload` replaces the body (empty when it goes in slices).
    public init(_ i: OutboxItem, payload: Data? = nil) {
        self.init(id: i.id ?? 0, kind: i.kind.rawValue, idempotencyKey: i.idempotencyKey, path: i.path,
                  payload: payload ?? i.payload, placeId: i.placeId, submissionId: i.submissionId,
                  state: i.state.rawValue, attempts: i.attempts, nextAttemptAt: i.nextAttemptAt,
                  notBefore: i.notBefore, lastError: i.lastError, httpStatus: i.httpStatus)
    }
}
