#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// A followed device's position, read from the broker and checked at the edge, on its way to
/// the daemon's friend radar: the protocol's `friend_fix` request itself. `who` comes from the
/// topic, never from the payload: whoever may publish under `hotcold/jane/ute` speaks for
/// jane/ute, nobody else can.
extension FriendFixRequest {
    /// A location message is a few hundred bytes; anything near this cap is not one.
    static let maximumPayloadBytes = 4096

    /// hotcold's `…/location` message (`LocationMessage`, what `HotColdLayout.location`
    /// writes). Nil for an empty payload (a retained message being cleared).
    public static func hotcold(_ payload: [UInt8], who: FriendID, now: Date = Date()) throws(FriendMessageError) -> FriendFixRequest? {
        try hotcoldLocation(payload, who: who, now: now)?.fix
    }

    /// The same, with how the friend's bridge reads a like (what its message says of its version).
    public static func hotcoldLocation(_ payload: [UInt8], who: FriendID, now: Date = Date()) throws(FriendMessageError)
        -> (fix: FriendFixRequest, reads: LikeDialect)? {
        guard let m = try BrokerPayload.decode(LocationMessage.self, payload, cap: maximumPayloadBytes,
                                               decoder: WireCoding.decoder()) else { return nil }
        let fix = try checked(who: who, name: m.name, time: m.time, lat: m.latitude, lon: m.longitude,
                              accuracy: m.gpsAccuracy, speed: m.speedMps, now: now)
        return (fix, m.likeDialect)
    }

    /// An OwnTracks message on `owntracks/USER/DEVICE`: `_type: location` (`OwnTracksLocation`:
    /// `lat`, `lon`, `tst` epoch seconds, `acc` metres, `vel` km/h, negative meaning unknown)
    /// gives a fix; any other `_type` (transition, lwt, waypoint…) gives nil, as does an empty
    /// payload.
    public static func ownTracks(_ payload: [UInt8], who: FriendID, now: Date = Date()) throws(FriendMessageError) -> FriendFixRequest? {
        struct Kind: Decodable { var _type: String }
        guard let k = try BrokerPayload.decode(Kind.self, payload, cap: maximumPayloadBytes),
              k._type == OwnTracksLocation.type else { return nil }
        guard let w = try BrokerPayload.decode(OwnTracksLocation.self, payload, cap: maximumPayloadBytes) else { return nil }
        guard w.tst.isFinite, abs(w.tst) < 1e11 else { throw FriendMessageError("tst \(w.tst) is not a time") }
        let speed = w.vel.flatMap { $0 >= 0 ? $0 / 3.6 : nil }
        return try checked(who: who, name: nil, time: Date(timeIntervalSince1970: w.tst), lat: w.lat, lon: w.lon,
                           accuracy: w.acc, speed: speed, now: now)
    }

    /// Checks the fields every layout shares against the daemon's window and bounds
    /// (`FriendLimits`), so the daemon is never sent what it would refuse; throws naming the
    /// first that is wrong.
    static func checked(who: FriendID, name: String?, time: Date, lat: Double, lon: Double, accuracy: Double?,
                        speed: Double?, now: Date) throws(FriendMessageError) -> FriendFixRequest {
        guard lat.isFinite, abs(lat) <= 90 else { throw FriendMessageError("latitude \(lat) outside ±90") }
        guard lon.isFinite, abs(lon) <= 180 else { throw FriendMessageError("longitude \(lon) outside ±180") }
        // How old a position is, is not judged here by comparing the friend's clock with this
        // box's (either may be years out: no real-time clock, a replayed recording): the
        // broker expires a retained position after a day on its own clock (the publisher's
        // message expiry), and the daemon measures ages from arrival. Only a time no GPS can
        // give is refused.
        guard FriendLimits.plausibleTimes.contains(time.timeIntervalSince1970) else {
            throw FriendMessageError("time \(ISO8601.format(time)) is outside 1980–2137")
        }
        if let a = accuracy {
            guard a.isFinite, a >= 0, a <= FriendLimits.fixMaxAccuracy else { throw FriendMessageError("accuracy \(a) m outside 0–10 km") }
        }
        if let v = speed {
            guard v.isFinite, v >= 0, v <= FriendLimits.fixMaxSpeed else { throw FriendMessageError("speed \(v) m/s outside 0–150") }
        }
        var shown: String?
        if let name {
            let trimmed = name.trimmingWhitespace()
            guard trimmed.count <= FriendLimits.nameLength,
                  !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FriendMessageError("name longer than \(FriendLimits.nameLength) characters or with control characters")
            }
            shown = trimmed.isEmpty ? nil : String(trimmed)
        }
        return FriendFixRequest(who: who, name: shown, time: time, lat: lat, lon: lon, accuracyM: accuracy, speedMps: speed)
    }
}
