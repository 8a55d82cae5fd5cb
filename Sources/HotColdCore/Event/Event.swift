#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the engine (and the daemon around it) tells the world. One case per wire `class`.
///
/// The socket and the log share this schema; see PROTOCOL.md and `schema/`.
public enum Event: Sendable, Equatable {
    case proximity(Proximity)
    case arrived(Passage)
    case departed(Passage)
    case gps(GPSChange)

    /// The wire `class` of this event.
    public var className: String {
        switch self {
        case .proximity: "PROXIMITY"
        case .arrived: "ARRIVED"
        case .departed: "DEPARTED"
        case .gps: "GPS"
        }
    }

    public var time: Date {
        switch self {
        case .proximity(let p): p.time
        case .arrived(let p), .departed(let p): p.time
        case .gps(let g): g.time
        }
    }

    /// The target the event is about, when it is about one.
    public var target: TargetRef? {
        switch self {
        case .proximity(let p): p.target
        case .arrived(let p), .departed(let p): p.target
        case .gps: nil
        }
    }

    /// Distance, tier and trend of one target at one fix.
    public struct Proximity: Sendable, Equatable {
        public var time: Date
        public var target: TargetRef
        public var distance: Double
        public var bearing: Double
        public var tier: Int
        public var tierName: String
        public var trend: Trend
        public var accuracy: Double?
        public var speed: Double?
        public var eta: Double?

        public init(time: Date, target: TargetRef, distance: Double, bearing: Double,
                    tier: Int, tierName: String, trend: Trend,
                    accuracy: Double? = nil, speed: Double? = nil, eta: Double? = nil) {
            self.time = time
            self.target = target
            self.distance = distance
            self.bearing = bearing
            self.tier = tier
            self.tierName = tierName
            self.trend = trend
            self.accuracy = accuracy
            self.speed = speed
            self.eta = eta
        }
    }

    /// Arrival at or departure from a target.
    public struct Passage: Sendable, Equatable {
        public var time: Date
        public var target: TargetRef
        public var distance: Double

        public init(time: Date, target: TargetRef, distance: Double) {
            self.time = time
            self.target = target
            self.distance = distance
        }
    }

    /// The receiver changed state (fix acquired, lost, stale; gpsd gone).
    public struct GPSChange: Sendable, Equatable {
        public var time: Date
        public var state: GPSState

        public init(time: Date, state: GPSState) {
            self.time = time
            self.state = state
        }
    }
}
