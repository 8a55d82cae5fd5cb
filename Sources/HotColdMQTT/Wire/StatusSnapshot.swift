import Foundation
import HotColdCore

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

        public init(time: Date, coordinate: Coordinate, mode: Int? = nil, accuracy: Double? = nil, speed: Double? = nil) {
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

    /// `fix`, `nofix`, `stale`, `lost` or `unknown`.
    public var gpsState: String
    public var lastFix: LastFix?
    public var targets: [TrackedTarget]

    public init(gpsState: String, lastFix: LastFix?, targets: [TrackedTarget]) {
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

    /// Most targets a snapshot keeps (a roam can track hundreds; the state message stays bounded).
    public static let maximumTargets = 1000

    /// Reads a `STATUS` line. Throws naming the field that is missing or out of range.
    public init(statusLine line: String) throws(WireError) {
        let w: Wire
        do {
            w = try JSONDecoder().decode(Wire.self, from: Data(line.utf8))
        } catch {
            throw WireError("STATUS: \(error)")
        }
        guard w.class == "STATUS" else { throw WireError("expected a STATUS, got \(w.class)") }
        gpsState = w.gps?.state ?? "unknown"
        if let f = w.gps?.last_fix {
            guard let time = ISO8601.parse(f.time) else {
                throw WireError("STATUS gps.last_fix.time: not an ISO-8601 time: \(f.time)")
            }
            let c = Coordinate(latitude: f.lat, longitude: f.lon)
            guard c.isValid else {
                throw WireError("STATUS gps.last_fix: coordinate out of range: \(f.lat),\(f.lon)")
            }
            let accuracy = f.accuracy_m.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            let speed = f.speed_mps.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            lastFix = LastFix(time: time, coordinate: c, mode: f.mode, accuracy: accuracy, speed: speed)
        } else {
            lastFix = nil
        }
        var list: [TrackedTarget] = []
        for (i, t) in (w.targets ?? []).prefix(Self.maximumTargets).enumerated() {
            guard t.distance_m.isFinite, t.distance_m >= 0, t.distance_m < 40_100_000 else {
                throw WireError("STATUS targets[\(i)].distance_m out of range: \(t.distance_m)")
            }
            guard t.bearing_deg.isFinite, (-360...360).contains(t.bearing_deg) else {
                throw WireError("STATUS targets[\(i)].bearing_deg out of range: \(t.bearing_deg)")
            }
            list.append(TrackedTarget(target: t.target, distance: t.distance_m, bearing: t.bearing_deg,
                                      tier: t.tier, tierName: t.tier_name, trend: t.trend, arrived: t.arrived))
        }
        targets = list
    }

    private struct Wire: Decodable {
        var `class`: String
        var gps: GPS?
        var targets: [Target]?
        struct GPS: Decodable {
            var state: String?
            var last_fix: Fix?
        }
        struct Fix: Decodable {
            var time: String
            var lat: Double
            var lon: Double
            var mode: Int?
            var accuracy_m: Double?
            var speed_mps: Double?
        }
        struct Target: Decodable {
            var target: TargetRef
            var distance_m: Double
            var bearing_deg: Double
            var tier: Int
            var tier_name: String
            var trend: Trend
            var arrived: Bool
        }
    }
}
