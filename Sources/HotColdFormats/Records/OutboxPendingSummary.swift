import Foundation

/// The outbox's waiting items in brief: how many, and the first one's times (it goes first).
public struct OutboxPendingSummary: Codable, Sendable, Equatable {
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
