import Foundation

/// A phone running OwnTracks, as far as its regions go: what each app does with the remote
/// commands (`<phone>/cmd`) a bridge sends it, as their sources read (owntracks/android
/// `WaypointsRepo.importFromMessage` + its Room table with a unique `tst`; owntracks/ios
/// `Settings changesSetWaypoints:`), so a test can hold the phone's merged set against what
/// the bridge meant.
///
/// - Android: `setWaypoints` merges, keyed by `tst` (a waypoint with a known `tst` replaces
///   that one: deleted and inserted again, its geofence re-registered); a waypoint with an
///   out-of-range `lat`/`lon` is ignored; `clearWaypoints` drops every region.
/// - iOS: `setWaypoints` merges, keyed by `rid` (else one made from `tst` and the name); a
///   waypoint with an out-of-range position deletes the region of its `rid` — and, when there
///   is none, is inserted as it is (a stray region, counted here); a waypoint equal to the
///   region held changes nothing; `clearWaypoints` drops every region. `desc` is
///   `NAME:UUID:MAJOR:MINOR` (a beacon), so only what precedes a colon is the name.
///
/// ```swift
/// var phone = OwnTracksPhone(app: .android)
/// try phone.receive(payload)
/// phone.rids    // the places the phone holds
/// ```
public struct OwnTracksPhone: Sendable {
    public enum App: String, Sendable, CaseIterable { case android, ios }

    public struct Region: Sendable, Equatable {
        public var rid: String
        public var name: String
        public var lat: Double
        public var lon: Double
        public var rad: Double
        public var tst: Int
        public var beacon: Bool
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let app: App
    public private(set) var regions: [Region] = []
    /// iOS: removals that found no region and were inserted as regions.
    public private(set) var strays = 0
    /// Regions (re-)registered with the system: an insert or a replacement each.
    public private(set) var registrations = 0
    public private(set) var commands = 0

    public init(app: App) { self.app = app }

    public var rids: Set<String> { Set(regions.map(\.rid)) }

    /// One message on the phone's `cmd` topic.
    public mutating func receive(_ payload: String) throws {
        guard let o = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
              o["_type"] as? String == "cmd", let action = o["action"] as? String else {
            throw Failure(description: "not a cmd: \(payload.prefix(200))")
        }
        commands += 1
        switch action {
        case "clearWaypoints":
            regions = []
        case "setWaypoints":
            guard let w = o["waypoints"] as? [String: Any], w["_type"] as? String == "waypoints",
                  let list = w["waypoints"] as? [[String: Any]] else {
                throw Failure(description: "setWaypoints without a waypoints object: \(payload.prefix(200))")
            }
            for wp in list { try set(wp) }
        default:
            throw Failure(description: "unexpected action \(action)")
        }
    }

    private mutating func set(_ wp: [String: Any]) throws {
        guard wp["_type"] as? String == "waypoint", let desc = wp["desc"] as? String, let tst = wp["tst"] as? Int else {
            throw Failure(description: "a waypoint without _type, desc or an integer tst: \(wp)")
        }
        let lat = (wp["lat"] as? NSNumber)?.doubleValue ?? 0, lon = (wp["lon"] as? NSNumber)?.doubleValue ?? 0
        let rad = (wp["rad"] as? NSNumber)?.doubleValue ?? 0
        let valid = (-90...90).contains(lat) && (-180...180).contains(lon)
        let parts = desc.split(separator: ":", omittingEmptySubsequences: false)
        let name = String(parts.first ?? "")
        let rid = (wp["rid"] as? String) ?? "\(tst)-\(name)"
        let region = Region(rid: rid, name: name, lat: lat, lon: lon, rad: rad, tst: tst, beacon: parts.count >= 2)
        switch app {
        case .android:
            guard valid else { return }
            regions.removeAll { $0.tst == tst }
            regions.append(region)
            registrations += 1
        case .ios:
            if let k = regions.firstIndex(where: { $0.rid == rid }) {
                if !valid {
                    regions.remove(at: k)
                } else if regions[k].name != name || regions[k].lat != lat || regions[k].lon != lon || regions[k].rad != rad {
                    regions[k] = region
                    registrations += 1
                }
            } else {
                if !valid { strays += 1 }
                regions.append(region)
                registrations += 1
            }
        }
    }
}
