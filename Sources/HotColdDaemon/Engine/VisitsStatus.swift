import Foundation
import HotColdCore

/// Where the device is and how storing its visits goes: the `visits` object of `STATUS`.
///
/// ```json
/// "visits":{"at":["halans:d0577fb8cf"],"restored":["halans:d0577fb8cf"],"pending":0,"held_events":0,
///           "retries":0,"stored":3,"failed":0,"dropped":0}
/// ```
public struct VisitsStatus: Sendable, Equatable {
    /// Stored places arrived at and not departed from (restored ones included), sorted.
    public var at: [String]
    /// The places restored as "at" from the store when the daemon started, sorted.
    public var restored: [String]
    public var recorder: VisitRecorder.Status
    /// Events waiting for their visits to be stored (or behind one at the same target).
    public var heldEvents: Int

    public var json: String {
        var o = JSONLine.object()
        o.addRaw("at", json: Self.array(at))
        o.addRaw("restored", json: Self.array(restored))
        o.add("pending", recorder.pending)
        o.add("held_events", heldEvents)
        o.add("retries", recorder.retries)
        o.add("stored", recorder.stored)
        o.add("failed", recorder.failed)
        o.add("dropped", recorder.dropped)
        if let e = recorder.error { o.add("error", e) }
        if let t = recorder.failingSince { o.add("failing_since", time: t) }
        return o.text
    }

    static func array(_ items: [String]) -> String {
        "[" + items.map(JSONLine.quoted).joined(separator: ",") + "]"
    }
}

extension EventSequence.Status {
    /// The `sequence` object of `STATUS`: `{"last":N,"reserved_through":R,"unreserved":0}`.
    public var json: String {
        var o = JSONLine.object()
        o.add("last", last)
        o.add("reserved_through", reservedThrough)
        o.add("unreserved", unreserved)
        if let error { o.add("error", error) }
        return o.text
    }
}
