import Foundation
import HotColdCore
import HotColdProtocol

/// When the car's position is worth a message: as it happens while the car moves, thinned by
/// distance and by turns (OwnTracks' move mode publishes on a displacement or an interval,
/// whichever comes first; this does the same from the receiver's own fixes, finer, since a
/// friend's radar wants a meeting within 100 m), and a heartbeat while it stands.
///
/// A fix is published when, against the last one published:
/// - it is the first, or the car **moved** `moveDistance` (25 m) — or two seconds' drive at the
///   fix's speed when that is more (60 m at 30 m/s: a highway is told every two seconds, a town
///   street every 25 m), or the fix's own accuracy when that is worse, so an old receiver
///   wandering 30 m while parked never counts as driving;
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
public struct PositionPolicy: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        public var moveDistance: Double = 25
        /// Seconds of driving at the fix's speed that count as a move when that is farther.
        public var moveSeconds: Double = 2
        public var turnDegrees: Double = 20
        /// Speed from which the car counts as driving, m/s (an old receiver reports ~1 m/s
        /// standing still), and under which it counts as stopped.
        public var drivingSpeed: Double = 2
        public var stoppedSpeed: Double = 0.5
        /// Longest silence while a newer fix exists, seconds.
        public var heartbeat: Double = 240

        public init(heartbeat: Double = 240) { self.heartbeat = heartbeat }
    }

    /// Why a position was published.
    public enum Reason: String, Sendable, Equatable {
        case first, moved, turned, stopped, started, heartbeat
    }

    public var settings: Settings
    /// The last fix published and when (the caller's monotonic seconds).
    public private(set) var published: StatusReply.LastFix?
    public private(set) var publishedAt: Double?
    /// The newest fix offered, published or not.
    public private(set) var latest: StatusReply.LastFix?

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// A new fix: whether to publish it, and why (nil: not now). The caller publishes and
    /// then calls `didPublish`.
    public mutating func offer(_ fix: StatusReply.LastFix, now: Double) -> Reason? {
        if let l = latest, fix.time <= l.time { return nil }
        latest = fix
        guard let last = published else { return .first }
        guard fix.time > last.time else { return nil }
        let moved = last.coordinate.distance(to: fix.coordinate)
        let needed = max(settings.moveDistance, fix.accuracyM ?? 0, (fix.speedMps ?? 0) * settings.moveSeconds)
        // (1 % short still counts: two fixes 30 m apart at 30 m/s are the two seconds.)
        if moved >= needed * 0.99 { return .moved }
        let wasDriving = (last.speedMps ?? 0) >= settings.drivingSpeed
        let driving = (fix.speedMps ?? 0) >= settings.drivingSpeed
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
    public func heartbeatDue(now: Double) -> Bool {
        guard let at = publishedAt, let l = latest, let p = published, l.time > p.time else { return false }
        return now - at >= settings.heartbeat
    }

    /// The fix went out.
    public mutating func didPublish(_ fix: StatusReply.LastFix, now: Double) {
        published = fix
        publishedAt = now
        if latest.map({ $0.time < fix.time }) ?? true { latest = fix }
    }

    /// Forget what was published (a new broker session may have lost the retained message).
    public mutating func reset() {
        published = nil
        publishedAt = nil
    }
}
