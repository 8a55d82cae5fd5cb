import Foundation
import HotColdCore

/// A followed device's position, read from the broker and checked at the edge, on its way to
/// the daemon's friend radar (`friend_fix`). `who` comes from the topic, never from the payload:
/// whoever may publish under `hotcold/jane/ute` speaks for jane/ute, nobody else can.
public struct FriendFix: Sendable, Equatable {
    public var who: FriendDevice
    /// The name the friend's message gives (at most 64 characters), if any.
    public var name: String?
    public var time: Date
    public var coordinate: Coordinate
    public var accuracy: Double?
    public var speed: Double?
    /// Came through the `[friends] club` prefix, not a follow.
    public var club = false

    public init(who: FriendDevice, name: String? = nil, time: Date, coordinate: Coordinate,
                accuracy: Double? = nil, speed: Double? = nil, club: Bool = false) {
        self.who = who
        self.name = name
        self.time = time
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.speed = speed
        self.club = club
    }

    /// A location message is a few hundred bytes; anything near this cap is not one.
    public static let maximumPayloadBytes = 4096
    /// The daemon's window (friends contract): a fix older than a day is history, one more
    /// than a minute ahead of this clock is wrong.
    public static let oldest: TimeInterval = 24 * 3600
    public static let newest: TimeInterval = 60
    public static let maximumAccuracy = 10_000.0
    public static let maximumSpeed = 150.0
    public static let maximumNameLength = 64

    /// Checks the fields every layout shares; throws naming the first that is wrong.
    static func checked(who: FriendDevice, name: String?, time: Date, lat: Double, lon: Double, accuracy: Double?,
                        speed: Double?, now: Date) throws(FriendMessageError) -> FriendFix {
        guard lat.isFinite, abs(lat) <= 90 else { throw FriendMessageError("latitude \(lat) outside ±90") }
        guard lon.isFinite, abs(lon) <= 180 else { throw FriendMessageError("longitude \(lon) outside ±180") }
        let age = now.timeIntervalSince(time)
        guard age <= oldest else { throw FriendMessageError("a fix \(Int(age)) s old (more than a day)") }
        guard age >= -newest else { throw FriendMessageError("a fix \(Int(-age)) s in the future") }
        if let a = accuracy {
            guard a.isFinite, a >= 0, a <= maximumAccuracy else { throw FriendMessageError("accuracy \(a) m outside 0–10 km") }
        }
        if let v = speed {
            guard v.isFinite, v >= 0, v <= maximumSpeed else { throw FriendMessageError("speed \(v) m/s outside 0–150") }
        }
        var shown: String?
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= maximumNameLength, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FriendMessageError("name longer than \(maximumNameLength) characters or with control characters")
            }
            shown = trimmed.isEmpty ? nil : trimmed
        }
        return FriendFix(who: who, name: shown, time: time, coordinate: Coordinate(latitude: lat, longitude: lon),
                         accuracy: accuracy, speed: speed)
    }
}
