#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

extension Bridge {
    /// The classes the bridge watches: what it publishes or acts on, and FIX (each fix, live:
    /// positions as they happen) when the daemon has it and positions are shared. Nil: every
    /// class (a daemon before protocol 1.9, which knows no FIX; positions then come from STATUS).
    /// The numbered events the bridge relays: the engine's, and the user's records and likes.
    static let relayedClasses = Set(EventMessage.classes + [RecordEvent.wireClass, LikeEvent.wireClass])

    var watchClasses: [String]? {
        guard fixStream else { return nil }
        let classes = EventMessage.classes + [RecordEvent.wireClass, LikeEvent.wireClass, FollowingChangedEvent.wireClass]
        return settings.share.sharesPositions ? classes + [FixEvent.wireClass] : classes
    }

    /// Seconds on the bridge's monotonic clock (what `PositionPolicy` and `PhoneRegions` count in).
    var monotonicSeconds: Double { (ContinuousClock.now - Self.epoch).seconds }
    static let epoch = ContinuousClock.now

    /// A FIX line from the daemon.
    func takeFix(_ line: String) {
        do {
            guard let e = try FixEvent.decode(line: line) else { return }
            offerFix(e)
        } catch {
            if let l = readFailures.failed("skipped a FIX the bridge cannot read: \(error)") { log(l) }
        }
    }

    /// A fix (from FIX, or STATUS's last fix): published when `PositionPolicy` says it tells
    /// something. Offering the same fix twice publishes it once.
    func offerFix(_ f: StatusReply.LastFix) {
        if let a = f.accuracyM { lastAccuracy = a }
        regionClock.noteFix(time: f.time, arrived: monotonicSeconds)
        guard settings.share.sharesPositions, let reason = position.offer(f, now: monotonicSeconds) else { return }
        publishPosition(f, reason)
    }

    /// After a new broker session (a broker that lost its state loses retained messages too):
    /// the next fix, status and nearest are published whatever they say.
    func republishIfNewSession() {
        guard shared.withLock({ s in defer { s.newSession = false }; return s.newSession }) else { return }
        position.reset()
        nearestSent = nil
        stateSent = nil
        statusWanted = true
    }

    /// The heartbeat: the latest fix again after `heartbeat` seconds of silence.
    func heartbeatIfDue() {
        guard settings.share.sharesPositions, position.heartbeatDue(now: monotonicSeconds), let f = position.latest else { return }
        publishPosition(f, .heartbeat)
    }

    private func publishPosition(_ f: StatusReply.LastFix, _ reason: PositionPolicy.Reason) {
        let p: Publication
        switch settings.layout {
        case .hotcold:
            p = HotColdLayout.location(f, topics: settings.topics)
        case .owntracks:
            p = OwnTracksLayout.location(f, inside: at.values.sorted { $0.id < $1.id }, tid: settings.trackerID,
                                         topics: settings.topics, ping: reason == .heartbeat)
        }
        // Not handed over (the broker is away): the next fix is judged again.
        guard publishUntracked(p) else { return }
        position.didPublish(f, now: monotonicSeconds)
        positionsPublished[reason, default: 0] += 1
        if reason != .heartbeat { movedSinceState = true }
    }

    /// Keeps `at` (the targets the car is at) in step with the events between statuses.
    func notePassage(_ e: Event) {
        switch e {
        case .arrived(let p) where p.target.kind != SharedPublications.friendKind: at[p.target.id] = p.target
        case .departed(let p): at[p.target.id] = nil
        default: break
        }
    }
}
