#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

extension StatusReply {
    /// The reply with the ranges decoding leaves open checked, for a client that computes with
    /// it (the MQTT bridge places targets from the fix, the bearing and the distance).
    ///
    /// Decoding checks types and required fields; this checks what a stale, newer or impostor
    /// daemon could still get wrong: the last fix's coordinate, each target's distance, bearing,
    /// tier and trend. Optional figures of the fix that make no sense (a negative accuracy or speed, a
    /// course outside 0–360) are dropped rather than refused, as a receiver that does not know
    /// them would leave them out.
    ///
    /// ```swift
    /// let status = try WireCoding.decode(StatusReply.self, from: line).checked()
    /// ```
    public func checked() throws(ProtocolError) -> StatusReply {
        var r = self
        if let f = gps.lastFix {
            guard f.coordinate.isValid else {
                throw ProtocolError(.outOfRange, command: "status", field: "gps.last_fix", "coordinate out of range: \(f.lat),\(f.lon)")
            }
            r.gps.lastFix?.accuracyM = f.accuracyM.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            r.gps.lastFix?.speedMps = f.speedMps.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            r.gps.lastFix?.trackDeg = f.trackDeg.flatMap { $0.isFinite && (0...360).contains($0) ? $0 : nil }
        }
        for (i, t) in targets.enumerated() {
            // Half the longest way round the Earth is under 20,004 km; anything past a full
            // circumference is no distance on it.
            guard t.distanceM.isFinite, t.distanceM >= 0, t.distanceM < 40_100_000 else {
                throw ProtocolError(.outOfRange, command: "status", field: "targets[\(i)].distance_m", "out of range: \(t.distanceM)")
            }
            guard t.bearingDeg.isFinite, (-360...360).contains(t.bearingDeg) else {
                throw ProtocolError(.outOfRange, command: "status", field: "targets[\(i)].bearing_deg", "out of range: \(t.bearingDeg)")
            }
            // A tier indexes the ladder (`tracking.tiers`, since minor 4): 0 is the coldest.
            guard t.tier >= 0, t.tier < (tracking.tiers?.count ?? Int.max) else {
                throw ProtocolError(.outOfRange, command: "status", field: "targets[\(i)].tier",
                                    "\(t.tier) is no level of the ladder (\(tracking.tiers?.count ?? 0) levels)")
            }
            guard Trend(rawValue: t.trend) != nil else {
                throw ProtocolError(.badField, command: "status", field: "targets[\(i)].trend", "not a trend: \(t.trend.prefix(20))")
            }
            // The target's own position (1.9): both or neither, on the Earth.
            if t.lat != nil || t.lon != nil {
                guard let c = t.coordinate, c.isValid else {
                    throw ProtocolError(.outOfRange, command: "status", field: "targets[\(i)].lat",
                                        "coordinate out of range or half missing: \(t.lat.map { "\($0)" } ?? "-"),\(t.lon.map { "\($0)" } ?? "-")")
                }
            }
        }
        return r
    }
}
