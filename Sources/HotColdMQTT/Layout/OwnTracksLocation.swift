#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OwnTracks' `_type: location` message (owntracks.org/booklet/tech/json) as the bridge writes
/// it for this car (`OwnTracksLayout.location`) and reads it from a followed phone or car
/// (`FriendFixRequest.ownTracks`): one type for both.
///
/// ```json
/// {"_type":"location","acc":10,"cog":0,"inregions":["Big Banana"],"inrids":["halans:d0577fb8cf"],
///  "lat":-30.3,"lon":153.1,"tid":"ar","tst":1735689600,"vel":36}
/// ```
/// The booklet's numbers are integers (`tst` epoch seconds, `acc` metres, `vel` km/h, `cog`
/// degrees) and are written so; they are read as any number, since apps differ. Reading takes
/// only what a position needs: `tid`, the regions and the rest (battery, connection…) are the
/// apps' and are not checked.
struct OwnTracksLocation: OwnTracksMessage, Codable, Sendable, Equatable {
    static let type = "location"

    var lat: Double
    var lon: Double
    /// When the fix was taken, epoch seconds.
    var tst: Double
    /// Accuracy, metres.
    var acc: Double?
    /// Speed, km/h; negative means unknown.
    var vel: Double?
    /// Course over ground, degrees.
    var cog: Double?
    var tid: String?
    /// The names and ids of the regions the device is in.
    var inregions: [String]?
    var inrids: [String]?
    /// The report's trigger: `p` for a heartbeat ("ping"); nil for one the movement caused
    /// (the booklet: a missing `t` is an automatic report).
    var t: String?

    init(lat: Double, lon: Double, tst: Double, acc: Double? = nil, vel: Double? = nil, cog: Double? = nil,
                tid: String? = nil, inregions: [String]? = nil, inrids: [String]? = nil) {
        self.lat = lat
        self.lon = lon
        self.tst = tst
        self.acc = acc
        self.vel = vel
        self.cog = cog
        self.tid = tid
        self.inregions = inregions
        self.inrids = inrids
    }

    enum CodingKeys: String, CodingKey { case type = "_type", lat, lon, tst, acc, vel, cog, tid, inregions, inrids, t }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lat = try c.decode(Double.self, forKey: .lat)
        lon = try c.decode(Double.self, forKey: .lon)
        tst = try c.decode(Double.self, forKey: .tst)
        acc = try c.decodeIfPresent(Double.self, forKey: .acc)
        vel = try c.decodeIfPresent(Double.self, forKey: .vel)
        cog = try c.decodeIfPresent(Double.self, forKey: .cog)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.type, forKey: .type)
        try c.encode(lat, forKey: .lat)
        try c.encode(lon, forKey: .lon)
        try c.encode(Self.whole(tst) ?? 0, forKey: .tst)
        try c.encodeIfPresent(acc.flatMap(Self.whole), forKey: .acc)
        try c.encodeIfPresent(vel.flatMap(Self.whole), forKey: .vel)
        try c.encodeIfPresent(cog.flatMap(Self.whole), forKey: .cog)
        try c.encodeIfPresent(tid, forKey: .tid)
        try c.encodeIfPresent(inregions, forKey: .inregions)
        try c.encodeIfPresent(inrids, forKey: .inrids)
        try c.encodeIfPresent(t, forKey: .t)
    }

    /// A finite value rounded to the nearest integer, or nil when it would not fit.
    static func whole(_ v: Double) -> Int? {
        guard v.isFinite, abs(v) < 9.0e15 else { return nil }
        return Int(v.rounded())
    }
}
