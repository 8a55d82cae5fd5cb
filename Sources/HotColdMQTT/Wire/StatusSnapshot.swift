import Foundation
import HotColdCore
import HotColdProtocol

/// What the bridge keeps from a daemon `STATUS` reply: the last fix and the tracked targets.
///
/// The daemon's events carry no position, so the bridge asks for `status` (throttled) to publish
/// the retained state (hotcold layout) and OwnTracks `location` messages, and to learn where
/// each tracked target lies (from the fix, the bearing and the distance) for OwnTracks
/// transitions. Decoding checks ranges once, here at the edge.
public struct StatusSnapshot: Sendable, Equatable {
    public struct LastFix: Sendable, Equatable {
        public var time: Date
        public var coordinate: Coordinate
        public var mode: Int?
        public var accuracy: Double?
        public var speed: Double?
        /// Course over ground, degrees true (the receiver's `track`), when it reports one.
        public var course: Double?

        public init(time: Date, coordinate: Coordinate, mode: Int? = nil, accuracy: Double? = nil, speed: Double? = nil,
                    course: Double? = nil) {
            self.course = course
            self.time = time
            self.coordinate = coordinate
            self.mode = mode
            self.accuracy = accuracy
            self.speed = speed
        }
    }

    public struct TrackedTarget: Sendable, Equatable {
        public var target: TargetRef
        public var distance: Double
        public var bearing: Double
        public var tier: Int
        public var tierName: String
        public var trend: Trend
        public var arrived: Bool

        public init(target: TargetRef, distance: Double, bearing: Double, tier: Int, tierName: String,
                    trend: Trend, arrived: Bool) {
            self.target = target
            self.distance = distance
            self.bearing = bearing
            self.tier = tier
            self.tierName = tierName
            self.trend = trend
            self.arrived = arrived
        }
    }

    /// When the daemon answered (what the snapshot says was true then).
    public var time: Date?
    /// `fix`, `nofix`, `stale`, `lost` or `unknown`.
    public var gpsState: String
    public var lastFix: LastFix?
    public var targets: [TrackedTarget]

    public init(gpsState: String, lastFix: LastFix?, targets: [TrackedTarget], time: Date? = nil) {
        self.time = time
        self.gpsState = gpsState
        self.lastFix = lastFix
        self.targets = targets
    }

    /// Where each tracked target lies, found from the last fix along its bearing and distance
    /// (the status gives no target coordinates). Good to a few metres at 10 km (the bearing
    /// has one decimal), to centimetres near the target.
    public var targetCoordinates: [String: Coordinate] {
        guard let fix = lastFix else { return [:] }
        var out: [String: Coordinate] = [:]
        for t in targets {
            out[t.target.id] = Geodesic.direct(from: fix.coordinate, bearing: t.bearing, distance: t.distance)
        }
        return out
    }

    /// The tracked target nearest now (in a hunt of one: the hunted one).
    public var nearest: TrackedTarget? { targets.min { $0.distance < $1.distance } }

    /// Most targets a snapshot keeps (a roam can track hundreds; the state message stays bounded).
    public static let maximumTargets = 1000

    /// Reads a `STATUS` line (the protocol's `StatusReply`), keeping what the bridge needs.
    /// Throws naming the field that is missing or out of range.
    public init(statusLine line: String) throws(WireError) {
        let w: StatusReply
        do {
            w = try WireCoding.decode(StatusReply.self, from: line)
        } catch {
            throw WireError("STATUS: \(error.message)")
        }
        time = w.time
        gpsState = w.gps.state
        if let f = w.gps.lastFix {
            let c = Coordinate(latitude: f.lat, longitude: f.lon)
            guard c.isValid else {
                throw WireError("STATUS gps.last_fix: coordinate out of range: \(f.lat),\(f.lon)")
            }
            let accuracy = f.accuracyM.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            let speed = f.speedMps.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            let course = f.trackDeg.flatMap { $0.isFinite && (0...360).contains($0) ? $0 : nil }
            lastFix = LastFix(time: f.time, coordinate: c, mode: f.mode, accuracy: accuracy, speed: speed, course: course)
        } else {
            lastFix = nil
        }
        var list: [TrackedTarget] = []
        for (i, t) in w.targets.prefix(Self.maximumTargets).enumerated() {
            guard t.distanceM.isFinite, t.distanceM >= 0, t.distanceM < 40_100_000 else {
                throw WireError("STATUS targets[\(i)].distance_m out of range: \(t.distanceM)")
            }
            guard t.bearingDeg.isFinite, (-360...360).contains(t.bearingDeg) else {
                throw WireError("STATUS targets[\(i)].bearing_deg out of range: \(t.bearingDeg)")
            }
            guard let trend = Trend(rawValue: t.trend) else {
                throw WireError("STATUS targets[\(i)].trend: not a trend: \(t.trend)")
            }
            list.append(TrackedTarget(target: t.target, distance: t.distanceM, bearing: t.bearingDeg,
                                      tier: t.tier, tierName: t.tierName, trend: trend, arrived: t.arrived))
        }
        targets = list
    }
}
