#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

// The engine's event payloads are the wire's shapes: this is their coding, the one place
// their keys and resolution are stated. Keys carry units on the wire (`distance_m`): each
// key's string is the camelCase name WireCoding's snake_case strategy turns into it.
//
// Numbers are rounded to the wire's resolution when written (millimetres, tenths of a degree
// and of a metre, centimetres per second, whole seconds), not when made: the engine keeps its
// full figures, and a line read back is already at the wire's resolution, so it re-encodes to
// the same bytes. Non-finite figures never reach a line (`Finite`).

extension Event.Proximity: Codable {
    enum CodingKeys: String, CodingKey {
        case time, target, tier, tierName, trend
        case distance = "distanceM", bearing = "bearingDeg", accuracy = "accuracyM", speed = "speedMps", eta = "etaS"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(time: try c.decode(Date.self, forKey: .time), target: try c.decode(TargetRef.self, forKey: .target),
                  distance: try c.decode(Double.self, forKey: .distance), bearing: try c.decode(Double.self, forKey: .bearing),
                  tier: try c.decode(Int.self, forKey: .tier), tierName: try c.decode(String.self, forKey: .tierName),
                  trend: try c.decode(Trend.self, forKey: .trend),
                  accuracy: try c.decodeIfPresent(Double.self, forKey: .accuracy),
                  speed: try c.decodeIfPresent(Double.self, forKey: .speed),
                  eta: try c.decodeIfPresent(Double.self, forKey: .eta))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(target, forKey: .target)
        try c.encode(Finite.round(distance, 3), forKey: .distance)
        try c.encode(Finite.round(bearing, 1), forKey: .bearing)
        try c.encode(tier, forKey: .tier)
        try c.encode(tierName, forKey: .tierName)
        try c.encode(trend, forKey: .trend)
        try c.encodeIfPresent(Finite.round(accuracy, 1), forKey: .accuracy)
        try c.encodeIfPresent(Finite.round(speed, 2), forKey: .speed)
        try c.encodeIfPresent(Finite.round(eta, 0), forKey: .eta)
    }
}

/// ARRIVED and DEPARTED: the line's `class` tells which.
extension Event.Passage: Codable {
    enum CodingKeys: String, CodingKey {
        case time, target
        case distance = "distanceM"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(time: try c.decode(Date.self, forKey: .time), target: try c.decode(TargetRef.self, forKey: .target),
                  distance: try c.decode(Double.self, forKey: .distance))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(target, forKey: .target)
        try c.encode(Finite.round(distance, 3), forKey: .distance)
    }
}

/// GPS: `reason` only from the daemon (gpsd gone).
extension Event.GPSChange: Codable {
    enum CodingKeys: String, CodingKey { case time, state, reason }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(time: try c.decode(Date.self, forKey: .time), state: try c.decode(GPSState.self, forKey: .state),
                  reason: try c.decodeIfPresent(String.self, forKey: .reason))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(reason, forKey: .reason)
    }
}
