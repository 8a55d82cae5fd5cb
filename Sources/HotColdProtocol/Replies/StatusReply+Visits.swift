#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StatusReply {
    /// Where the device is and how storing its visits goes.
    ///
    /// ```json
    /// "visits":{"at":["halans:d0577fb8cf"],"restored":[],"pending":1,"held_events":1,"retries":3,
    ///           "stored":4,"failed":0,"dropped":0,"error":"cannot store the arrival at …: database is locked",
    ///           "failing_since":"2025-01-01T00:00:05.000Z"}
    /// ```
    public struct Visits: Codable, Sendable, Equatable {
        /// Stored places arrived at and not departed from (restored ones included).
        var at: [String]
        /// The places restored as "at" from the database when the daemon started.
        var restored: [String]
        /// Visits and departures waiting to be stored.
        var pending: Int
        /// Events waiting for them (an ARRIVED/DEPARTED, and that target's later ones).
        var heldEvents: Int
        /// Failed attempts that were retried, since start.
        var retries: Int
        var stored: Int
        /// Given up: the place is gone, or a lasting error that is not transient.
        var failed: Int
        /// Refused because the queue (1,024) was full.
        var dropped: Int
        /// While the database refuses writes: what goes wrong, and since when.
        var error: String?
        var failingSince: Date?

        public init(at: [String], restored: [String], pending: Int, heldEvents: Int, retries: Int, stored: Int,
                    failed: Int, dropped: Int, error: String? = nil, failingSince: Date? = nil) {
            self.at = at
            self.restored = restored
            self.pending = pending
            self.heldEvents = heldEvents
            self.retries = retries
            self.stored = stored
            self.failed = failed
            self.dropped = dropped
            self.error = error
            self.failingSince = failingSince
        }
    }

    /// The event sequence numbers: the last one published and how far they are reserved.
    public struct Sequence: Codable, Sendable, Equatable {
        /// The last `seq` published (0 before the first event).
        public var last: Int
        /// Numbers up to here are reserved durably: a restart continues above.
        var reservedThrough: Int
        /// Numbers given out beyond the reservation while it could not be written (only these
        /// could repeat after a crash).
        var unreserved: Int
        var error: String?

        public init(last: Int, reservedThrough: Int, unreserved: Int, error: String? = nil) {
            self.last = last
            self.reservedThrough = reservedThrough
            self.unreserved = unreserved
            self.error = error
        }
    }
}
