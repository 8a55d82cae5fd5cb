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

    /// The wire line with `"seq":N` right after `"class"`, written by the protocol's one
    /// definition of each message (the same encoder every client reads with).
    public func line(seq: Int) -> String {
        switch self {
        case .engine(let e):
            EventMessage(e, seq: seq).line
        case .gpsLost(let time, let reason):
            WireCoding.line(GPSEvent(seq: seq, time: time, state: .lost, reason: reason))
        case .queued(let q):
            WireCoding.line(QueuedEvent(seq: seq, time: q.time, pending: q.pending))
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
