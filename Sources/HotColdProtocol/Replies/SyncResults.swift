#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The results of the `sync` ops, in `{"class":"SYNC","op":…,"result":…}` replies
/// (`ResultReply` with class `SYNC`). The catalogue's report and the pending summary are the
/// store's own value types, as the `import` reply's report is.
public enum SyncResult {
    /// `etag`: the stored catalogue's ETag, if any.
    public struct ETag: Codable, Sendable, Equatable {
        public var etag: String?
        public init(etag: String?) { self.etag = etag }
    }

    /// `next`: the item, its payload inline when it fits in one reply (else empty, read with
    /// `payload` slices).
    public struct Next: Codable, Sendable, Equatable {
        public var item: QueuedRequest?
        public var payloadBytes: Int
        public var payloadInline: Bool
        public init(item: QueuedRequest?, payloadBytes: Int, payloadInline: Bool) {
            self.item = item
            self.payloadBytes = payloadBytes
            self.payloadInline = payloadInline
        }
    }

    /// `payload`: bytes of an item's payload from the offset asked, and its whole length.
    public struct Slice: Codable, Sendable, Equatable {
        public var data: Data
        public var total: Int
        public init(data: Data, total: Int) {
            self.data = data
            self.total = total
        }
    }

    /// `begin`: false when the item is no longer pending.
    public struct Begun: Codable, Sendable, Equatable {
        public var begun: Bool
        public init(begun: Bool) { self.begun = begun }
    }

    /// `delivered`, `failed`, `retry`: recorded.
    public struct Done: Codable, Sendable, Equatable {
        public var done = true
        public init() {}
    }

    /// `item`: the item as it stands, without its payload.
    public struct Item: Codable, Sendable, Equatable {
        public var item: QueuedRequest?
        public init(item: QueuedRequest?) { self.item = item }
    }
}

/// One web API request in the daemon's outbox, as `hotcold-sync` sends it and records what
/// became of it: the exact body and idempotency key, and the item's state. The wire's own
/// type (the database row is the store's `OutboxItem`; `HotColdFormats` maps one to the other).
public struct QueuedRequest: Codable, Sendable, Equatable {
    public var id: Int64
    /// `rating` or `submission`.
    public var kind: String
    public var idempotencyKey: String
    /// Relative to the API's base URL.
    public var path: String
    /// The JSON body exactly as sent (empty when it is read in `payload` slices).
    public var payload: Data
    public var user: String
    public var placeId: String?
    public var submissionId: Int64?
    /// `pending`, `delivered` or `failed`.
    public var state: String
    public var attempts: Int
    public var createdAt: Date
    public var lastAttemptAt: Date?
    public var nextAttemptAt: Date
    public var notBefore: Date?
    public var lastError: String?
    public var httpStatus: Int?
    public var response: Data?
    public var finishedAt: Date?

    public init(id: Int64, kind: String, idempotencyKey: String, path: String, payload: Data, user: String,
                placeId: String?, submissionId: Int64?, state: String, attempts: Int, createdAt: Date,
                lastAttemptAt: Date?, nextAttemptAt: Date, notBefore: Date?, lastError: String?,
                httpStatus: Int?, response: Data?, finishedAt: Date?) {
        self.id = id
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        self.path = path
        self.payload = payload
        self.user = user
        self.placeId = placeId
        self.submissionId = submissionId
        self.state = state
        self.attempts = attempts
        self.createdAt = createdAt
        self.lastAttemptAt = lastAttemptAt
        self.nextAttemptAt = nextAttemptAt
        self.notBefore = notBefore
        self.lastError = lastError
        self.httpStatus = httpStatus
        self.response = response
        self.finishedAt = finishedAt
    }
}
