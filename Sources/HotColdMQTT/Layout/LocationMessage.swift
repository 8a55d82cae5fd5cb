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
/// {"gps_accuracy":9,"latitude":-30.3,"longitude":153.1,"proto_major":1,"proto_minor":11,"speed_mps":10,"time":"2025-01-01T00:00:00.000Z"}
/// ```
/// `proto_major`/`proto_minor` (since 1.11) are the writing bridge's protocol version: what a
/// follower's bridge goes by to send it likes under the class it reads (``LikeDialect``).
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
    /// The writer's protocol version (this bridge writes its own; earlier bridges none).
    var protoMajor: Int?
    var protoMinor: Int?

    init(time: Date, latitude: Double, longitude: Double, gpsAccuracy: Double? = nil, speedMps: Double? = nil,
         name: String? = nil, protoMajor: Int? = ProtocolVersion.major, protoMinor: Int? = ProtocolVersion.minor) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.gpsAccuracy = gpsAccuracy
        self.speedMps = speedMps
        self.name = name
        self.protoMajor = protoMajor
        self.protoMinor = protoMinor
    }

    enum CodingKeys: String, CodingKey { case time, latitude, longitude, gpsAccuracy, speedMps, name, protoMajor, protoMinor }

    /// How the writer reads a like.
    var likeDialect: LikeDialect { LikeDialect(major: protoMajor, minor: protoMinor) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encodeIfPresent(gpsAccuracy.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0.rounded()) : nil }, forKey: .gpsAccuracy)
        try c.encodeIfPresent(speedMps, forKey: .speedMps)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(protoMajor, forKey: .protoMajor)
        try c.encodeIfPresent(protoMinor, forKey: .protoMinor)
    }

    /// The message's text (one JSON object, no newline).
    var payload: String {
        WireCoding.object(self)
    }
}
