import Foundation
import HotColdCore
import HotColdProtocol

/// One event as the daemon publishes it: an engine event, the daemon's own word that gpsd
/// is gone (a `GPS` event with a `reason`, which the pure engine cannot know), or that the
/// outbox grew (`QUEUED`, for hotcold-sync).
///
/// The sequence number is given when it is published, so that numbers follow the order in
/// which events leave (see ``EventPublisher``).
public enum PublishedEvent: Sendable, Equatable {
    case engine(Event)
    case gpsLost(time: Date, reason: String)
    case queued(QueuedEvent)

    /// The wire line with `"seq":N` right after `"class"`.
    public func line(seq: Int) -> String {
        switch self {
        case .engine(let e):
            return e.jsonLine(seq: seq)
        case .gpsLost(let time, let reason):
            var o = JSONLine(class: "GPS")
            o.add("seq", seq)
            o.add("time", time: time)
            o.add("state", GPSState.lost.rawValue)
            o.add("reason", reason)
            return o.text
        case .queued(let q):
            // By hand like the others: the log's reader finds `seq` right after `class`.
            var o = JSONLine(class: QueuedEvent.wireClass)
            o.add("seq", seq)
            o.add("time", time: q.time)
            o.add("pending", q.pending)
            return o.text
        }
    }

    public var filter: BroadcastFilter {
        switch self {
        case .engine(let e): BroadcastFilter(e)
        case .gpsLost: .watchers(className: "GPS", targetID: nil)
        case .queued: .watchers(className: QueuedEvent.wireClass, targetID: nil)
        }
    }
}
