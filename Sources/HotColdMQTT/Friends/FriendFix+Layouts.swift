import Foundation
import HotColdCore

extension FriendFix {
    /// hotcold's `…/location` message (what `HotColdLayout.location` writes):
    /// `{"time":ISO,"latitude":…,"longitude":…,"gps_accuracy":…,"speed_mps":…,"name":…}`.
    /// Nil for an empty payload (a retained message being cleared).
    public static func hotcold(_ payload: [UInt8], who: FriendDevice, now: Date = Date()) throws(FriendMessageError) -> FriendFix? {
        struct Wire: Decodable {
            var time: String
            var latitude: Double
            var longitude: Double
            var gps_accuracy: Double?
            var speed_mps: Double?
            var name: String?
        }
        guard let w = try decode(Wire.self, payload) else { return nil }
        guard let t = ISO8601.parse(w.time) else { throw FriendMessageError("time \"\(w.time.prefix(40))\" is not ISO 8601") }
        return try checked(who: who, name: w.name, time: t, lat: w.latitude, lon: w.longitude,
                           accuracy: w.gps_accuracy, speed: w.speed_mps, now: now)
    }

    /// An OwnTracks message on `owntracks/USER/DEVICE`: `_type: location` (`lat`, `lon`, `tst`
    /// epoch seconds, `acc` metres, `vel` km/h, negative meaning unknown) gives a fix; any other
    /// `_type` (transition, lwt, waypoint…) gives nil, as does an empty payload.
    public static func ownTracks(_ payload: [UInt8], who: FriendDevice, now: Date = Date()) throws(FriendMessageError) -> FriendFix? {
        struct Kind: Decodable { var _type: String }
        struct Wire: Decodable {
            var lat: Double
            var lon: Double
            var tst: Double
            var acc: Double?
            var vel: Double?
        }
        guard let k = try decode(Kind.self, payload), k._type == "location" else { return nil }
        guard let w = try decode(Wire.self, payload) else { return nil }
        guard w.tst.isFinite, abs(w.tst) < 1e11 else { throw FriendMessageError("tst \(w.tst) is not a time") }
        let speed = w.vel.flatMap { $0 >= 0 ? $0 / 3.6 : nil }
        return try checked(who: who, name: nil, time: Date(timeIntervalSince1970: w.tst), lat: w.lat, lon: w.lon,
                           accuracy: w.acc, speed: speed, now: now)
    }

    /// Decodes one JSON object within the size cap; nil for an empty payload.
    static func decode<T: Decodable>(_ type: T.Type, _ payload: [UInt8], cap: Int = FriendFix.maximumPayloadBytes) throws(FriendMessageError) -> T? {
        guard !payload.isEmpty else { return nil }
        guard payload.count <= cap else { throw FriendMessageError("\(payload.count) bytes (over \(cap))") }
        guard payload.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{") else {
            throw FriendMessageError("not a JSON object")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload))
        } catch let DecodingError.keyNotFound(key, _) {
            throw FriendMessageError("field \(key.stringValue) missing")
        } catch let DecodingError.typeMismatch(_, c) {
            throw FriendMessageError("field \(c.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch let DecodingError.valueNotFound(_, c) {
            throw FriendMessageError("field \(c.codingPath.map(\.stringValue).joined(separator: ".")) is null")
        } catch {
            throw FriendMessageError("not JSON")
        }
    }
}
