import HotColdProtocol
import Foundation
import HotColdCore

/// Reads GeoJSON `Point` features (a FeatureCollection or a single Feature).
///
/// `properties.kind` says what a point is (`bigthing`, `geocache`, `waypoint`, `location`;
/// absent means a custom location) and the other properties carry its details under the same
/// names hotcold exports, so an export reads back as the same places. Visit features from a
/// visits export are not places and are skipped with a warning.
///
/// ```swift
/// let batch = try GeoJSONImporter.parse(json, file: "trip.geojson")
/// ```
enum GeoJSONImporter {
    public static func parse(_ root: JSONValue, file: String) throws(ImportError) -> ImportBatch {
        let features: [JSONValue]
        switch root["type"]?.string {
        case "FeatureCollection"?:
            guard let f = root["features"]?.array else {
                throw .structure(file: file, message: "a FeatureCollection needs a \"features\" array")
            }
            features = f
        case "Feature"?: features = [root]
        default: throw .structure(file: file, message: "expected a GeoJSON FeatureCollection or Feature")
        }
        var batch = ImportBatch(format: .geoJSON)
        var seen = Set<String>()
        for (i, feature) in features.enumerated() {
            var props = feature["properties"]?.object ?? [:]
            if props["id"] == nil, let fid = feature["id"] { props["id"] = fid }
            var row = JSONRow(props, row: i + 1)
            if row.name == nil { row.name = props["title"]?.string }
            do throws(ImportIssue) {
                if props["kind"]?.string == "visit" {
                    batch.warnings.append(row.issue("kind", "a visit, not a place; skipped"))
                    continue
                }
                guard feature["geometry"]?["type"]?.string == "Point",
                      let coords = feature["geometry"]?["coordinates"]?.array, coords.count >= 2,
                      let lon = coords[0].number, let lat = coords[1].number
                else { throw row.issue("geometry", "expected a Point with [longitude, latitude]") }
                props["lat"] = .number(lat)
                props["lon"] = .number(lon)
                let detail = try place(from: JSONRow(props, row: i + 1), lat: lat, lon: lon)
                guard seen.insert(detail.id).inserted else {
                    batch.warnings.append(row.issue("id", "repeats an earlier feature's id; skipped"))
                    continue
                }
                batch.places.append(detail)
            } catch {
                batch.skipped.append(error)
            }
        }
        return batch
    }

    package static func place(from row: JSONRow, lat: Double, lon: Double) throws(ImportIssue) -> PlaceDetail {
        let kind = TargetKind(rawValue: try row.text("kind") ?? TargetKind.location.rawValue)
        guard abs(lat) <= 90 else { throw row.issue("geometry", "latitude \(lat) is out of range (-90…90)") }
        guard abs(lon) <= 180 else { throw row.issue("geometry", "longitude \(lon) is out of range (-180…180)") }
        switch kind {
        case .bigThing:
            return try BigThingsImporter.place(from: row)
        case .geocache:
            let code = (try row.text("code") ?? row.id)?.uppercased()
            guard let code else { throw row.issue("code", "missing") }
            let name = row.name ?? code
            var d = GeocacheDetails(
                placeId: code, code: code, cacheType: try row.text("cache_type"), container: try row.text("container"),
                difficulty: try row.number("difficulty", in: GeocacheDetails.ratingRange),
                terrain: try row.number("terrain", in: GeocacheDetails.ratingRange), owner: try row.text("owner"),
                placedBy: try row.text("placed_by"), hint: try row.text("hint"),
                shortDescription: try row.text("short_description"), longDescription: try row.text("long_description"),
                descriptionIsHTML: try row.bool("description_is_html") ?? false, logsCount: try row.integer("logs_count", in: 0...Int(Int32.max)) ?? 0,
                available: try row.bool("available") ?? true, archived: try row.bool("archived") ?? false,
                country: try row.text("country"), region: try row.text("region"),
                placedAt: try row.text("placed_at").flatMap { ISO8601.parse($0) }, url: try row.text("url"))
            d.originalLatitude = try row.number("original_latitude", in: -90...90)
            d.originalLongitude = try row.number("original_longitude", in: -180...180)
            let place = Place(id: code, kind: .geocache, name: name, latitude: lat, longitude: lon,
                              active: d.available && !d.archived, searchText: SearchText.fold("\(name) \(code)"))
            return PlaceDetail(place: place, geocache: d)
        case .waypoint:
            guard let id = row.id?.uppercased() else { throw row.issue("id", "missing") }
            let name = row.name ?? id
            let d = WaypointDetails(placeId: id, parentId: try row.text("parent_id") ?? GPXImporter.parentCode(of: id),
                                    waypointType: try row.text("waypoint_type"), comment: try row.text("comment"),
                                    description: try row.text("description"))
            let place = Place(id: id, kind: .waypoint, name: name, latitude: lat, longitude: lon,
                              searchText: SearchText.fold("\(name) \(id)"))
            return PlaceDetail(place: place, waypoint: d)
        default:
            guard let name = row.name, !name.isEmpty else { throw row.issue("name", "missing") }
            let id = row.id ?? "location:geojson-" + StableHash.hex("\(name)\u{1F}\(lat)\u{1F}\(lon)")
            let originText = try row.text("origin")
            let origin = originText.flatMap(LocationOrigin.init(rawValue:)) ?? .custom
            let place = Place(id: id, kind: kind, name: name, latitude: lat, longitude: lon)
            return PlaceDetail(place: place, location: kind == .location ? LocationDetails(placeId: id, origin: origin) : nil)
        }
    }
}
