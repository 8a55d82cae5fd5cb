#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// An event line as a Codable value: the mirror of HotColdCore's hand-written encoder in
/// `Event+JSON.swift`, which the daemon keeps on its hot path (a test holds the two equal).
///
/// `seq` is the daemon's event number (absent in `hotcold replay` output and older logs).
public enum EventMessage: Sendable, Equatable {
    case proximity(ProximityEvent)
    case arrived(PassageEvent)
    case departed(PassageEvent)
    case gps(GPSEvent)

    /// The engine's event classes, each named once by its type.
    public static let classes = [ProximityEvent.wireClass, PassageEvent.arrivedClass, PassageEvent.departedClass, GPSEvent.wireClass]

    /// Decodes an event line; nil when the line is of another class.
    public static func decode(line: some StringProtocol) throws(ProtocolError) -> EventMessage? {
        switch WireCoding.className(of: line) {
        case ProximityEvent.wireClass: return .proximity(try WireCoding.decode(ProximityEvent.self, from: line))
        case PassageEvent.arrivedClass: return .arrived(try WireCoding.decode(PassageEvent.self, class: PassageEvent.arrivedClass, from: line))
        case PassageEvent.departedClass: return .departed(try WireCoding.decode(PassageEvent.self, class: PassageEvent.departedClass, from: line))
        case GPSEvent.wireClass: return .gps(try WireCoding.decode(GPSEvent.self, from: line))
        default: return nil
        }
    }

    /// The daemon's number for this event (nil in `hotcold replay` output and older logs).
    public var seq: Int? {
        switch self {
        case .proximity(let p): p.seq
        case .arrived(let p), .departed(let p): p.seq
        case .gps(let g): g.seq
        }
    }

    /// The same event in HotColdCore's model (without `seq`).
    public var event: Event {
        switch self {
        case .proximity(let p):
            .proximity(Event.Proximity(time: p.time, target: p.target, distance: p.distanceM, bearing: p.bearingDeg,
                                       tier: p.tier, tierName: p.tierName, trend: p.trend,
                                       accuracy: p.accuracyM, speed: p.speedMps, eta: p.etaS))
        case .arrived(let p): .arrived(Event.Passage(time: p.time, target: p.target, distance: p.distanceM))
        case .departed(let p): .departed(Event.Passage(time: p.time, target: p.target, distance: p.distanceM))
        case .gps(let g): .gps(Event.GPSChange(time: g.time, state: g.state))
        }
    }

    /// The line for this event: how the daemon publishes it and `hotcold replay` prints it.
    public var line: String {
        switch self {
        case .proximity(let p): WireCoding.line(p)
        case .arrived(let p), .departed(let p): WireCoding.line(p)
        case .gps(let g): WireCoding.line(g)
        }
    }

    public init(_ e: Event, seq: Int? = nil) {
        switch e {
        case .proximity(let p):
            self = .proximity(ProximityEvent(seq: seq, time: p.time, target: p.target, distanceM: p.distance,
                                             bearingDeg: p.bearing, tier: p.tier, tierName: p.tierName, trend: p.trend,
                                             accuracyM: p.accuracy, speedMps: p.speed, etaS: p.eta))
        case .arrived(let p):
            self = .arrived(PassageEvent(arrived: true, seq: seq, time: p.time, target: p.target, distanceM: p.distance))
        case .departed(let p):
            self = .departed(PassageEvent(arrived: false, seq: seq, time: p.time, target: p.target, distanceM: p.distance))
        case .gps(let g):
            self = .gps(GPSEvent(seq: seq, time: g.time, state: g.state))
        }
    }
}

/// PROXIMITY: distance, direction, tier and trend of one target.
public struct ProximityEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "PROXIMITY"
    public var seq: Int?
    public var time: Date
    public var target: TargetRef
    public var distanceM: Double
    public var bearingDeg: Double
    public var tier: Int
    public var tierName: String
    public var trend: Trend
    public var accuracyM: Double?
    public var speedMps: Double?
    public var etaS: Double?

    public init(seq: Int? = nil, time: Date, target: TargetRef, distanceM: Double, bearingDeg: Double, tier: Int,
                tierName: String, trend: Trend, accuracyM: Double? = nil, speedMps: Double? = nil, etaS: Double? = nil) {
        self.seq = seq
        self.time = time
        self.target = target
        self.distanceM = Finite.round(distanceM, 3)
        self.bearingDeg = Finite.round(bearingDeg, 1)
        self.tier = tier
        self.tierName = tierName
        self.trend = trend
        self.accuracyM = Finite.round(accuracyM, 1)
        self.speedMps = Finite.round(speedMps, 2)
        self.etaS = Finite.round(etaS, 0)
    }
}

/// ARRIVED or DEPARTED.
public struct PassageEvent: SequencedMessage, Equatable {
    public static let arrivedClass = "ARRIVED"
    public static let departedClass = "DEPARTED"
    public var wireClass: String
    public var seq: Int?
    public var time: Date
    public var target: TargetRef
    public var distanceM: Double

    public init(arrived: Bool, seq: Int? = nil, time: Date, target: TargetRef, distanceM: Double) {
        wireClass = arrived ? Self.arrivedClass : Self.departedClass
        self.seq = seq
        self.time = time
        self.target = target
        self.distanceM = Finite.round(distanceM, 3)
    }

    public mutating func wireClassDecoded(_ name: String) { wireClass = name }

    enum CodingKeys: String, CodingKey { case seq, time, target, distanceM }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        wireClass = ""
        seq = try c.decodeIfPresent(Int.self, forKey: .seq)
        time = try c.decode(Date.self, forKey: .time)
        target = try c.decode(TargetRef.self, forKey: .target)
        distanceM = try c.decode(Double.self, forKey: .distanceM)
    }
}

/// GPS: the receiver's state changed.
public struct GPSEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "GPS"
    public var seq: Int?
    public var time: Date
    public var state: GPSState
    public var reason: String?

    public init(seq: Int? = nil, time: Date, state: GPSState, reason: String? = nil) {
        self.seq = seq
        self.time = time
        self.state = state
        self.reason = reason
    }
}
