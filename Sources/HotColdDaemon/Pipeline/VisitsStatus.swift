import Foundation
import HotColdProtocol

/// Where the device is and how storing its visits goes: the `visits` object of `STATUS`.
struct VisitsStatus: Sendable, Equatable {
    /// Stored places arrived at and not departed from (restored ones included), sorted.
    var at: [String]
    /// The places restored as "at" from the store when the daemon started, sorted.
    var restored: [String]
    var recorder: VisitRecorder.Status
    /// Events waiting for their visits to be stored (or behind one at the same target).
    var heldEvents: Int

    var reply: StatusReply.Visits {
        StatusReply.Visits(at: at, restored: restored, pending: recorder.pending, heldEvents: heldEvents,
                           retries: recorder.retries, stored: recorder.stored, failed: recorder.failed,
                           dropped: recorder.dropped, error: recorder.error, failingSince: recorder.failingSince)
    }
}

extension EventSequence.Status {
    /// The `sequence` object of `STATUS`.
    var reply: StatusReply.Sequence {
        StatusReply.Sequence(last: last, reservedThrough: reservedThrough, unreserved: unreserved, error: error)
    }
}
