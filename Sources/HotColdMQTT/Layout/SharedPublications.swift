#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// The messages a daemon event becomes, in the bridge's layout, under its share policy (pure:
/// the same event and settings give the same messages).
///
/// - `positions`: the layout's messages as ever, and a `FEED_ITEM` (kind `arrived`) for each
///   ARRIVED at a place;
/// - `visits`: the `FEED_ITEM`, the last arrival without its distance (hotcold layout; Home
///   Assistant's "last arrival" reads it), OwnTracks transitions without the waypoint's lat/lon
///   and without acc; never PROXIMITY, DEPARTED's distance, a location or a state;
/// - `nothing`: no message at all.
///
/// An event about a friend on the radar (target kind `friend`: how near, a meeting, a parting)
/// is no message at all, in any layout: it is not this car's own news, and where two friends
/// met, or how far apart they are, is theirs — republished on this car's `…/event`, `…/visit`,
/// `…/arrival` or as an OwnTracks transition it would tell this car's readers where the friend
/// was. The friend shares its own position on its own topics, as its user chose.
enum SharedPublications {
    static let friendKind = TargetKind("friend")

    /// `wtst`: the region's creation time of the event's target (OwnTracks transitions).
    static func forEvent(_ e: EventMessage, settings s: BridgeSettings, waypoint: Coordinate?,
                                accuracy: Double?, wtst: @autoclosure () -> Int = 0) -> [Publication] {
        guard s.share.sharesVisits, e.event.target?.kind != friendKind else { return [] }
        var out: [Publication] = []
        switch (s.layout, s.share) {
        case (.hotcold, .positions):
            out = HotColdLayout.publications(for: e, topics: s.topics)
        case (.hotcold, _):
            if case .arrived(let p) = e.event {
                out.append(Publication(topic: s.topics.arrival, payload: BareArrival(p, seq: e.seq).payload, retain: true))
            }
        case (.owntracks, let share):
            let positions = share.sharesPositions
            switch e.event {
            case .arrived, .departed:
                out = OwnTracksLayout.transition(e, waypoint: positions ? waypoint : nil, accuracy: positions ? accuracy : nil,
                                                 tid: s.trackerID, wtst: wtst(), topics: s.topics).map { [$0] } ?? []
            case .proximity, .gps: break
            }
        }
        if case .arrived(let p) = e.event, p.target.kind != friendKind, let seq = e.seq {
            let place = FeedItem.Place(id: p.target.id, name: p.target.name, kind: p.target.kind.rawValue)
            let item = FeedItem(author: s.user, device: s.device, seq: seq, time: p.time, kind: "arrived", place: place)
            out.append(Publication(topic: s.friendTopics.feed, payload: WireCoding.line(item)))
        }
        return out
    }

    /// Retained topics that may hold what the policy no longer shares (left by an earlier run
    /// that shared more): cleared with an empty retained message when the bridge connects.
    static func retainedToClear(settings s: BridgeSettings) -> [Publication] {
        var topics: [String] = []
        if !s.share.sharesPositions {
            switch s.layout {
            case .hotcold: topics += [s.topics.state, s.topics.location, s.topics.nearest]
            case .owntracks: topics.append(s.topics.base)
            }
            if let ha = s.homeAssistant { topics += ha.configs().map(\.topic).filter { !ha.sharedUnder(s.share, topic: $0) } }
        }
        if !s.share.sharesVisits, s.layout == .hotcold { topics.append(s.topics.arrival) }
        return topics.map { Publication(topic: $0, payload: "", retain: true) }
    }
}
