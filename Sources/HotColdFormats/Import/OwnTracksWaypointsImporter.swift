import HotColdProtocol
import Foundation
import HotColdCore

/// Reads OwnTracks waypoints — the app's export (`.otrw`: `{"_type":"waypoints","waypoints":
/// [{"_type":"waypoint","desc","lat","lon","rad","tst","rid"}]}`) or a `setWaypoints` command
/// that carries one — as custom locations, so the regions a phone already has become targets.
///
/// A waypoint's id comes from its region id (`rid`) when it has one, else from its creation
/// time (`tst`) and name, which OwnTracks keeps for the life of a region: importing the same
/// export again updates the same rows.
///
/// ```swift
/// let batch = try OwnTracksWaypointsImporter.parse(json, file: "regions.otrw")
/// ```
enum OwnTracksWaypointsImporter {
    /// True for an OwnTracks waypoints export or a `setWaypoints` command.
    package static func recognises(_ top: [String: JSONValue]) -> Bool {
        switch top["_type"]?.string {
        case "waypoints": return true
        case "cmd": return top["action"]?.string == "setWaypoints"
        default: return false
        }
    }

    public static func parse(_ root: JSONValue, file: String) throws(ImportError) -> ImportBatch {
        let holder = root["_type"]?.string == "cmd" ? root["waypoints"] : root
        guard let list = holder?["waypoints"]?.array else {
            throw .structure(file: file, message: "expected a \"waypoints\" array (an OwnTracks _type waypoints object)")
        }
        var batch = ImportBatch(format: .ownTracksWaypoints)
        batch.addRows(list, repeatField: "desc", repeatMessage: "repeats an earlier waypoint; skipped") { row throws(ImportIssue) in
            if let type = row.fields["_type"]?.string, type != "waypoint" {
                throw row.issue("_type", "\"\(type)\" is not a waypoint")
            }
            let name = try row.requiredText("desc")
            let (lat, lon) = try row.coordinate(lat: "lat", lon: "lon")
            let created = row.fields["tst"]?.number.flatMap { $0.isFinite && abs($0) < 1e15 ? String(Int($0)) : nil } ?? ""
            let id = "location:owntracks-" + StableHash.hex(try row.text("rid") ?? "\(created)\u{1F}\(name)")
            row.id = id
            let place = Place(id: id, kind: .location, name: name, latitude: lat, longitude: lon)
            return PlaceDetail(place: place, location: LocationDetails(placeId: id, origin: .custom))
        }
        return batch
    }
}
