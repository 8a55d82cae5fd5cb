#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The results of the `sync` ops, in `{"class":"SYNC","op":…,"result":…}` replies
/// (`ResultReply` with class `SYNC`). Every one is the protocol's own shape, so the store's
/// records can change without changing what `hotcold-sync` reads.
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
        var done = true
        public init() {}
    }

    /// `item`: the item as it stands, without its payload.
    public struct Item: Codable, Sendable, Equatable {
        public var item: QueuedRequest?
        public init(item: QueuedRequest?) { self.item = item }
    }

    /// `pending`: how many items wait, and the first one's times (it goes first).
    public struct Pending: Codable, Sendable, Equatable {
        public var count: Int
        /// The first waiting item's own backoff time.
        public var nextAttemptAt: Date?
        /// The first waiting item's Retry-After from the server.
        public var notBefore: Date?

        public init(count: Int, nextAttemptAt: Date? = nil, notBefore: Date? = nil) {
            self.count = count
            self.nextAttemptAt = nextAttemptAt
            self.notBefore = notBefore
        }
    }

    /// `catalogue`: what applying the server's catalogue did. The reply is a summary: each list
    /// holds at most `SyncLimits.reportRows` entries, with the full count beside a list that was
    /// cut, and `details` names a download holding the whole report in this same shape.
    public struct Catalogue: Codable, Sendable, Equatable {
        public var importReport: ImportReportPayload
        /// Big Things the full list no longer has, newly marked withdrawn.
        public var withdrawn: [String]
        /// Withdrawn Big Things the list has again.
        public var reinstated: [String]
        /// How many were withdrawn / reinstated, when the lists above hold only the first.
        var withdrawnTotal: Int?
        var reinstatedTotal: Int?
        /// The id of a download on the same connection holding the whole report as JSON.
        var details: String?

        public init(importReport: ImportReportPayload, withdrawn: [String], reinstated: [String],
                    withdrawnTotal: Int?, reinstatedTotal: Int?, details: String?) {
            self.importReport = importReport
            self.withdrawn = withdrawn
            self.reinstated = reinstated
            self.withdrawnTotal = withdrawnTotal
            self.reinstatedTotal = reinstatedTotal
            self.details = details
        }
    }
}

/// One web API request waiting in the daemon's outbox, as `hotcold-sync` sends it: the exact
/// body and idempotency key, and the retry state that decides when it goes. What the delivery
/// loop needs and no more (the outbox row, the store's `OutboxItem`, keeps who queued it, its
/// times and the server's full reply).
public struct QueuedRequest: Codable, Sendable, Equatable {
    public var id: Int64
    /// `rating` or `submission`.
    public var kind: String
    public var idempotencyKey: String
    /// Relative to the API's base URL.
    public var path: String
    /// The JSON body exactly as sent (empty when it is read in `payload` slices).
    public var payload: Data
    public var placeId: String?
    var submissionId: Int64?
    /// `pending`, `delivered` or `failed`.
    var state: String
    public var attempts: Int
    public var nextAttemptAt: Date
    /// The server's Retry-After: no attempt before this.
    public var notBefore: Date?
    public var lastError: String?
    var httpStatus: Int?

    public init(id: Int64, kind: String, idempotencyKey: String, path: String, payload: Data,
                placeId: String? = nil, submissionId: Int64? = nil, state: String = "pending", attempts: Int = 0,
                nextAttemptAt: Date, notBefore: Date? = nil, lastError: String? = nil, httpStatus: Int? = nil) {
        self.id = id
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        self.path = path
        self.payload = payload
        self.placeId = placeId
        self.submissionId = submissionId
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.notBefore = notBefore
        self.lastError = lastError
        self.httpStatus = httpStatus
    }
}
