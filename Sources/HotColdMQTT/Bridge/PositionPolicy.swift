#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// When the car's position is worth a message: as it happens while the car moves, thinned by
/// distance and by turns (OwnTracks' move mode publishes on a displacement or an interval,
/// whichever comes first; this does the same from the receiver's own fixes, finer, since a
/// friend's radar wants a meeting within 100 m and the driver wants it now), and a heartbeat
/// while it stands.
///
/// A fix is published when, against the last one published:
/// - it is the first, or the car **moved** `moveDistance` (10 m) — below driving speed, or the
///   fix's own accuracy when that is worse, so an old receiver wandering 30 m while parked
///   never counts as driving. A car at road speed is so told at every fix of a 1 Hz receiver: a friend's radar
///   is never more than one fix behind. A crawling car (a jam, a car park) is told every 10 m;
///   a 10 Hz receiver at 30 m/s about three times a second;
/// - the car **turned** `turnDegrees` (20°) while driving (≥ 2 m/s, course known, 5 m on);
/// - the car **stopped** (it was driving, now under 0.5 m/s) or **started** (the reverse), so a
///   follower never extrapolates a car that stands, nor a car that left;
/// - nothing was published for `heartbeat` seconds (240): the latest fix, so followers, Home
///   Assistant and OwnTracks Recorder know the car is there.
/// A fix not newer than the last one published never goes out: no message repeats another
/// with only a new time, except the heartbeat, which is the point of it.
///
/// Pure: the caller gives each fix and its own monotonic seconds.
///
/// ```swift
/// var p = PositionPolicy()
/// p.offer(fix, now: 0)        // .first
/// p.offer(sameSpot, now: 1)   // nil
/// p.heartbeatDue(now: 241)    // true (with a newer fix offered meanwhile)
/// ```
struct PositionPolicy: Sendable, Equatable {
    struct Settings: Sendable, Equatable {
        var moveDistance: Double = 10
        var turnDegrees: Double = 20
        /// Speed from which the car counts as driving, m/s (an old receiver reports ~1 m/s
        /// standing still), and under which it counts as stopped.
        var drivingSpeed: Double = 2
        var stoppedSpeed: Double = 0.5
        /// Longest silence while a newer fix exists, seconds.
        var heartbeat: Double = 240

        init(heartbeat: Double = 240) { self.heartbeat = heartbeat }
    }

    /// Why a position was published.
    enum Reason: String, Sendable, Equatable {
        case first, moved, turned, stopped, started, heartbeat
    }

    var settings: Settings
    /// The last fix published and when (the caller's monotonic seconds).
    private(set) var published: StatusReply.LastFix?
    private(set) var publishedAt: Double?
    /// The newest fix offered, published or not.
    private(set) var latest: StatusReply.LastFix?

    init(settings: Settings = Settings()) { self.settings = settings }

    /// A new fix: whether to publish it, and why (nil: not now). The caller publishes and
    /// then calls `didPublish`.
    mutating func offer(_ fix: StatusReply.LastFix, now: Double) -> Reason? {
        if let l = latest, fix.time <= l.time { return nil }
        latest = fix
        guard let last = published else { return .first }
        guard fix.time > last.time else { return nil }
        let moved = last.coordinate.distance(to: fix.coordinate)
        let wasDriving = (last.speedMps ?? 0) >= settings.drivingSpeed
        let driving = (fix.speedMps ?? 0) >= settings.drivingSpeed
        // Standing (or crawling), a wander within the fix's own accuracy is no move.
        let needed = driving ? settings.moveDistance : max(settings.moveDistance, fix.accuracyM ?? 0)
        if moved >= needed { return .moved }
        if wasDriving, let s = fix.speedMps, s < settings.stoppedSpeed { return .stopped }
        if !wasDriving, driving, (last.speedMps ?? 0) < settings.stoppedSpeed { return .started }
        if driving, wasDriving, moved >= 5, let a = last.trackDeg, let b = fix.trackDeg {
            let turn = abs((b - a + 540).truncatingRemainder(dividingBy: 360) - 180)
            if turn >= settings.turnDegrees { return .turned }
        }
        if let at = publishedAt, now - at >= settings.heartbeat { return .heartbeat }
        return nil
    }

    /// Whether the heartbeat is due now: the latest fix is newer than the one published and
    /// `heartbeat` seconds passed (checked between fixes, so a stream that stops is no reason).
    func heartbeatDue(now: Double) -> Bool {
        guard let at = publishedAt, let l = latest, let p = published, l.time > p.time else { return false }
        return now - at >= settings.heartbeat
    }

    /// The fix went out.
    mutating func didPublish(_ fix: StatusReply.LastFix, now: Double) {
        published = fix
        publishedAt = now
        if latest.map({ $0.time < fix.time }) ?? true { latest = fix }
    }

    /// Forget what was published (a new broker session may have lost the retained message).
    mutating func reset() {
        published = nil
        publishedAt = nil
    }
}
