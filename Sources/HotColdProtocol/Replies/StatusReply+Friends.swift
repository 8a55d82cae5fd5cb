#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

extension StatusReply {
    /// One friend on the radar.
    ///
    /// ```json
    /// {"who":"jane/ute","name":"Jane","distance_m":1520.4,"bearing_deg":312.5,"tier":4,"tier_name":"cool",
    ///  "trend":"colder","arrived":false,"age_s":3,"stale":false}
    /// ```
    /// `distance_m`, `bearing_deg`, `tier` and `tier_name` are absent while this car has no
    /// trusted fix; a `stale` friend (silent past `[friends] stale_after`) has trend `unknown`.
    public struct Friend: Codable, Sendable, Equatable {
        public var who: String
        public var name: String
        public var distanceM: Double?
        public var bearingDeg: Double?
        public var tier: Int?
        public var tierName: String?
        public var trend: String
        public var arrived: Bool
        /// Seconds since the friend's last position (on the fix timeline).
        public var ageS: Double
        public var stale: Bool

        public init(who: String, name: String, distanceM: Double?, bearingDeg: Double?, tier: Int?, tierName: String?,
                    trend: String, arrived: Bool, ageS: Double, stale: Bool) {
            self.who = who
            self.name = name
            self.distanceM = Finite.round(distanceM, 3)
            self.bearingDeg = Finite.round(bearingDeg, 1)
            self.tier = tier
            self.tierName = tierName
            self.trend = trend
            self.arrived = arrived
            self.ageS = Finite.round(ageS, 0)
            self.stale = stale
        }
    }
}
