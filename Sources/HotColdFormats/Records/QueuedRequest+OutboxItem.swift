import Foundation
import HotColdProtocol

/// The outbox row and its wire form (`sync` replies), one mapping each way: the daemon sends
/// a row as a ``QueuedRequest``, `hotcold-sync` reads it back as the ``OutboxItem`` its
/// delivery loop works on.
extension QueuedRequest {
    /// The row as the wire carries it; `payload` replaces the body (empty when it goes in slices).
    public init(_ i: OutboxItem, payload: Data? = nil) {
        self.init(id: i.id ?? 0, kind: i.kind.rawValue, idempotencyKey: i.idempotencyKey, path: i.path,
                  payload: payload ?? i.payload, user: i.user, placeId: i.placeId, submissionId: i.submissionId,
                  state: i.state.rawValue, attempts: i.attempts, createdAt: i.createdAt,
                  lastAttemptAt: i.lastAttemptAt, nextAttemptAt: i.nextAttemptAt, notBefore: i.notBefore,
                  lastError: i.lastError, httpStatus: i.httpStatus, response: i.response, finishedAt: i.finishedAt)
    }
}

extension OutboxItem {
    /// The row a `sync` reply describes; nil when its kind or state is not one this build knows.
    public init?(_ q: QueuedRequest) {
        guard let kind = Kind(rawValue: q.kind), let state = State(rawValue: q.state) else { return nil }
        self.init(id: q.id, kind: kind, idempotencyKey: q.idempotencyKey, path: q.path, payload: q.payload,
                  user: q.user, placeId: q.placeId, submissionId: q.submissionId, createdAt: q.createdAt)
        self.state = state
        attempts = q.attempts
        lastAttemptAt = q.lastAttemptAt
        nextAttemptAt = q.nextAttemptAt
        notBefore = q.notBefore
        lastError = q.lastError
        httpStatus = q.httpStatus
        response = q.response
        finishedAt = q.finishedAt
    }
}
