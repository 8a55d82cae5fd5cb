import Foundation
import HotColdCore

/// One event as the daemon publishes it: an engine event, or the daemon's own word that gpsd
/// is gone (a `GPS` event with a `reason`, which the pure engine cannot know).
///
/// The sequence number is given when it is published, so that numbers follow the order in
/// which events leave (see ``EventPublisher``).
public enum PublishedEvent: Sendable, Equatable {
    case engine(Event)
    case gpsLost(time: Date, reason: String)

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
        }
    }

    public var filter: BroadcastFilter {
        switch self {
        case .engine(let e): BroadcastFilter(e)
        case .gpsLost: .watchers(className: "GPS", targetID: nil)
        }
    }
}
