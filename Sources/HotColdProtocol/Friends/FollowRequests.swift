#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

extension Fields {
    /// A `USER/DEVICE` field.
    func friend(_ key: String) throws(ProtocolError) -> FriendID? {
        guard let s = try string(key, max: 2 * FriendID.partLength + 1) else { return nil }
        guard let id = FriendID(parsing: s) else {
            throw ProtocolError(.badField, command: command, field: key,
                                "must be USER/DEVICE, each 1–64 of A–Z a–z 0–9 . _ - (such as jane/ute), got \"\(s)\"")
        }
        return id
    }

    func requiredFriend(_ key: String) throws(ProtocolError) -> FriendID {
        try required(try friend(key), key, "USER/DEVICE, such as jane/ute")
    }
}

/// `follow` / `unfollow`: the caller's Unix user starts or stops following a device.
///
/// ```json
/// {"cmd":"follow","who":"jane/ute"}
/// ```
public struct FollowRequest: RequestBody {
    public var who: FriendID
    /// `follow` (true) or `unfollow` (false).
    public var follow: Bool

    public init(who: FriendID, follow: Bool = true) {
        self.who = who
        self.follow = follow
    }

    init(_ decoder: any Decoder, follow: Bool) throws(ProtocolError) {
        let f = try Fields(decoder, command: follow ? "follow" : "unfollow", allowed: ["who"])
        who = try f.requiredFriend("who")
        self.follow = follow
    }

    init(_ decoder: any Decoder) throws(ProtocolError) { try self.init(decoder, follow: true) }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: follow ? "follow" : "unfollow")
        try w.put("who", who)
    }
}

/// `following`: the caller's follows, or with `all` the union over every user (what the
/// bridge subscribes to) with the follow `version`.
public struct FollowingRequest: RequestBody {
    public var all: Bool

    public init(all: Bool = false) { self.all = all }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "following", allowed: ["all"])
        all = try f.bool("all") ?? false
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "following")
        if all { try w.put("all", all) }
    }
}

/// `friend_fix` (the bridge): a followed device's position, for the friend radar.
///
/// ```json
/// {"cmd":"friend_fix","who":"jane/ute","name":"Jane","time":"2026-11-25T10:00:00.000Z","lat":-30.1,"lon":153.1,"accuracy_m":8,"speed_mps":3.2}
/// ```
/// The time window (24 h past, 60 s ahead) is checked by the daemon against its clock.
public struct FriendFixRequest: RequestBody {
    public var who: FriendID
    public var name: String?
    public var time: Date
    public var lat: Double
    public var lon: Double
    public var accuracyM: Double?
    public var speedMps: Double?
    /// Sent under the bridge's `[friends] club` prefix: accepted though nobody follows it.
    public var club: Bool

    public init(who: FriendID, name: String? = nil, time: Date, lat: Double, lon: Double,
                accuracyM: Double? = nil, speedMps: Double? = nil, club: Bool = false) {
        self.who = who
        self.name = name
        self.time = time
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
        self.speedMps = speedMps
        self.club = club
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "friend_fix",
                           allowed: ["who", "name", "time", "lat", "lon", "accuracy_m", "speed_mps", "club"])
        who = try f.requiredFriend("who")
        name = try f.string("name", max: FriendLimits.nameLength)
        time = try f.required(try f.time("time"), "time", "an ISO-8601 time")
        lat = try f.required(try f.latitude(), "lat", "a latitude in -90…90")
        lon = try f.required(try f.longitude(), "lon", "a longitude in -180…180")
        accuracyM = try f.number("accuracy_m", in: 0...FriendLimits.fixMaxAccuracy)
        speedMps = try f.number("speed_mps", in: 0...FriendLimits.fixMaxSpeed)
        club = try f.bool("club") ?? false
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "friend_fix")
        try w.put("who", who)
        try w.put("name", name)
        try w.put("time", ISO8601.format(time))
        try w.put("lat", lat)
        try w.put("lon", lon)
        try w.put("accuracy_m", accuracyM)
        try w.put("speed_mps", speedMps)
        if club { try w.put("club", club) }
    }
}
