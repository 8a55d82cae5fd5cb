#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A point on the WGS84 ellipsoid in decimal degrees.
///
/// ```swift
/// let bigBanana = Coordinate(latitude: -30.2767, longitude: 153.1353)
/// let d = bigBanana.distance(to: Coordinate(latitude: -30.28, longitude: 153.13))
/// ```
public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and within ±90° / ±180°.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Parses `LAT,LON` in decimal degrees (the command-line habit); nil when malformed or out of range.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingBlanks()),
              let lon = Double(parts[1].trimmingBlanks())
        else { return nil }
        self.init(latitude: lat, longitude: lon)
        guard isValid else { return nil }
    }
}

extension Coordinate: CustomStringConvertible {
    public var description: String { "\(latitude),\(longitude)" }
}
