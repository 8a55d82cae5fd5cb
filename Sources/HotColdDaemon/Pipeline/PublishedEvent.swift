import Foundation
import HotColdCore
import HotColdProtocol

/// One event as the daemon publishes it: an engine event (or the daemon's own word that gpsd
/// is gone: a `GPS` change with the `reason` the pure engine cannot know), or that the outbox
/// grew (`QUEUED`, for hotcold-sync).
///
/// The sequence number is given when it is published, so that numbers follow the order in
/// which events leave (see ``EventPublisher``).
public enum PublishedEvent: Sendable, Equatable {
    case engine(Event)
    case queued(QueuedEvent)
    /// Friends (protocol 1.6): a new feed item, a like given here, a user's record of a
    /// place, a change of who is followed.
    case feed(FeedEvent)
    case like(LikeEvent)
    case record(RecordEvent)
    case followingChanged(FollowingChangedEvent)
    /// A friend's device liked (or unliked) one of this car's own finds (since 1.9).
    case likeReceived(LikeReceivedEvent)
    /// A fix the engine accepted (since 1.9): live only, to watchers naming FIX — no number,
    /// no log line, no replay (see ``isLiveOnly``).
    case fix(FixEvent)

    /// The wire line with `"seq":N` right after `"class"`, written by the protocol's one
    /// definition of each message (the same encoder every client reads with).
    public func line(seq: Int) -> String {
        switch self {
        case .engine(let e):
            EventMessage(e, seq: seq).line
        case .queued(let q):
            WireCoding.line(QueuedEvent(seq: seq, time: q.time, pending: q.pending))
        case .feed(let e): Self.numbered(e, seq)
        case .like(let e): Self.numbered(e, seq)
        case .record(let e): Self.numbered(e, seq)
        case .followingChanged(let e): Self.numbered(e, seq)
        case .likeReceived(let e): Self.numbered(e, seq)
        case .fix(let e): WireCoding.line(e)
        }
    }

    /// Sent to the watchers that want it as it happens, and nothing more: not numbered, not
    /// logged, not kept for a client catching up (a position is news only while it is new).
    var isLiveOnly: Bool {
        if case .fix = self { return true }
        return false
    }

    private static func numbered<M: SequencedMessage>(_ message: M, _ seq: Int) -> String {
        var m = message
        m.seq = seq
        return WireCoding.line(m)
    }

    /// Synced to the log as soon as it is written (``LogWriter``): what a user is told
    /// happened at a place, or did there, is not left to the next group sync.
    var isUrgentForLog: Bool {
        switch self {
        case .engine(.arrived), .engine(.departed), .record: true
        default: false
        }
    }

    public var filter: BroadcastFilter {
        switch self {
        case .engine(let e): BroadcastFilter(e)
        case .queued: .watchers(className: QueuedEvent.wireClass, targetID: nil)
        case .feed: .watchers(className: FeedEvent.wireClass, targetID: nil)
        case .like: .watchers(className: LikeEvent.wireClass, targetID: nil)
        case .record(let e): .personal(className: RecordEvent.wireClass, user: e.user)
        case .followingChanged: .watchers(className: FollowingChangedEvent.wireClass, targetID: nil)
        case .likeReceived: .watchers(className: LikeReceivedEvent.wireClass, targetID: nil)
        case .fix: .watchers(className: FixEvent.wireClass, targetID: nil)
        }
    }
}
