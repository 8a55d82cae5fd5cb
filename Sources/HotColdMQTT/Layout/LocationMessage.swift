#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

/// hotcold's `…/location` message (retained): the last fix as Home Assistant's device-tracker
/// attributes, and what a follower's bridge reads as a friend's position. One type writes it
/// (`HotColdLayout.location`) and reads it (`FriendFixRequest.hotcold`), through the protocol's
/// coder (snake_case keys, ISO-8601 times with milliseconds).
///
/// ```json
/// {"gps_accuracy":9,"latitude":-30.3,"longitude":153.1,"speed_mps":10,"time":"2025-01-01T00:00:00.000Z"}
/// ```
struct LocationMessage: Codable, Sendable, Equatable {
    /// When the fix was taken.
    var time: Date
    var latitude: Double
    var longitude: Double
    /// Metres. Written as a whole number (Home Assistant's `gps_accuracy` is an integer), read
    /// as any number (another writer may send a fraction).
    var gpsAccuracy: Double?
    var speedMps: Double?
    /// A display name; this bridge writes none, a friend's may.
    var name: String?

    init(time: Date, latitude: Double, longitude: Double, gpsAccuracy: Double? = nil, speedMps: Double? = nil,
                name: String? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.gpsAccuracy = gpsAccuracy
        self.speedMps = speedMps
        self.name = name
    }

    enum CodingKeys: String, CodingKey { case time, latitude, longitude, gpsAccuracy, speedMps, name }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encodeIfPresent(gpsAccuracy.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0.rounded()) : nil }, forKey: .gpsAccuracy)
        try c.encodeIfPresent(speedMps, forKey: .speedMps)
        try c.encodeIfPresent(name, forKey: .name)
    }

    /// The message's text (one JSON object, no newline).
    var payload: String {
        WireCoding.object(self)
    }
}
