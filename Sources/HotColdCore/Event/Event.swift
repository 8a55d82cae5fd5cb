#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the engine (and the daemon around it) tells the world. One case per wire `class`.
///
/// These payloads are the wire's shapes too: HotColdProtocol gives them their coding (keys with
/// units, the wire's rounding) and numbers them (`EventMessage`), so an event has one definition.
/// The socket and the log share this schema; see PROTOCOL.md and `schema/`.
public enum Event: Sendable, Equatable {
    case proximity(Proximity)
    case arrived(Passage)
    case departed(Passage)
    case gps(GPSChange)

    public static let proximityClass = "PROXIMITY"
    public static let arrivedClass = "ARRIVED"
    public static let departedClass = "DEPARTED"
    public static let gpsClass = "GPS"

    /// Every event class, in the order of the cases.
    public static let classNames = [proximityClass, arrivedClass, departedClass, gpsClass]

    /// The wire `class` of this event.
    public var className: String {
        switch self {
        case .proximity: Self.proximityClass
        case .arrived: Self.arrivedClass
        case .departed: Self.departedClass
        case .gps: Self.gpsClass
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
        /// Why, in the daemon's words, when it knows more than the engine (gpsd closed the
        /// connection). The pure engine never sets it: it sees fixes, not connections.
        public var reason: String?

        public init(time: Date, state: GPSState, reason: String? = nil) {
            self.time = time
            self.state = state
            self.reason = reason
        }
    }
}
