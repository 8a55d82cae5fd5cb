import HotColdProtocol
import Foundation
import HotColdCore

/// Reads GPX 1.0/1.1 waypoints: Groundspeak caches (`cache/1/0`, `1/0/1`), their child
/// waypoints, opencaching.de listings, GSAK exports (corrected coordinates preferred: GSAK
/// writes the corrected point as the waypoint and the listed one as `LatBeforeCorrect`), and
/// hotcold's own exports. A plain waypoint becomes a custom location.
///
/// Child waypoints find their cache by GSAK's `<Parent>`, by opencaching's `OCXXXX-n` names,
/// or by Groundspeak's convention that a waypoint code is two letters plus the cache code
/// without `GC` (`PK2T9RW` belongs to `GC2T9RW`).
///
/// ```swift
/// let batch = try GPXImporter.parse(data, file: "6004539_HomeZone.gpx")
/// ```
public enum GPXImporter {
    public static func parse(_ data: Data, file: String) throws(ImportError) -> ImportBatch {
        let reader: GPXWaypointReader
        do { reader = try GPXWaypointReader.read(data) } catch {
            throw .malformed(file: file, line: error.line, column: error.column, message: "malformed XML: \(error.message)")
        }
        guard reader.sawGPXRoot else { throw .unrecognisedFormat(file: file, reason: "the XML root is not <gpx>") }
        var batch = ImportBatch(format: .gpx)
        var seen = Set<String>()
        for w in reader.waypoints {
            do throws(ImportIssue) {
                let detail = try place(from: w)
                guard seen.insert(detail.id).inserted else {
                    batch.warnings.append(ImportIssue(row: w.index, line: w.line, id: detail.id,
                                                      name: detail.place.name, message: "repeats an earlier waypoint; skipped"))
                    continue
                }
                batch.places.append(detail)
            } catch {
                batch.skipped.append(error)
            }
        }
        return batch
    }

    package static func clean(_ s: String?) -> String? {
        guard let t = s?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }

    package static func place(from w: GPXWaypoint) throws(ImportIssue) -> PlaceDetail {
        let code = clean(w.fields["name"])
        func issue(_ field: String?, _ message: String) -> ImportIssue {
            ImportIssue(row: w.index, line: w.line, id: code, name: clean(w.cache?["name"]) ?? code,
                        field: field, message: message)
        }
        guard let latText = w.lat, let lat = Double(latText.trimmingCharacters(in: .whitespaces)) else {
            throw issue("lat", w.lat == nil ? "missing" : "\"\(w.lat!)\" is not a number")
        }
        guard let lonText = w.lon, let lon = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
            throw issue("lon", w.lon == nil ? "missing" : "\"\(w.lon!)\" is not a number")
        }
        guard abs(lat) <= 90 else { throw issue("lat", "latitude \(lat) is out of range (-90…90)") }
        guard abs(lon) <= 180 else { throw issue("lon", "longitude \(lon) is out of range (-180…180)") }

        if let h = w.hotcold, let kind = h["kind"].map(TargetKind.init(rawValue:)), kind != .geocache, kind != .waypoint {
            return try hotcoldPlace(w, h, kind: kind, lat: lat, lon: lon, issue: issue)
        }
        let type = clean(w.fields["type"]) ?? ""
        if let cache = w.cache ?? (type.hasPrefix("Geocache") ? [:] : nil) {
            guard let code else { throw issue("name", "a geocache needs its code as <name>") }
            return geocache(w, cache, code: code.uppercased(), lat: lat, lon: lon)
        }
        if type.hasPrefix("Waypoint") || w.gsak["Parent"] != nil {
            guard let code else { throw issue("name", "a waypoint needs its code as <name>") }
            return waypoint(w, code: code.uppercased(), type: type, lat: lat, lon: lon)
        }
        // Any other waypoint: a location the user brought, id stable by name and point.
        let name = code ?? clean(w.fields["desc"]) ?? "Waypoint \(w.index)"
        let id = "location:gpx-" + StableHash.hex("\(name)\u{1F}\(lat)\u{1F}\(lon)")
        let place = Place(id: id, kind: .location, name: name, latitude: lat, longitude: lon)
        return PlaceDetail(place: place, location: LocationDetails(placeId: id, origin: .custom))
    }

    package static func geocache(_ w: GPXWaypoint, _ c: [String: String], code: String, lat: Double, lon: Double) -> PlaceDetail {
        let name = clean(c["name"]) ?? clean(w.fields["urlname"]) ?? clean(w.fields["desc"]) ?? code
        let flag: (String?) -> Bool? = { s in s.map { $0.lowercased() == "true" } }
        let available = flag(c["@available"]) ?? true
        let archived = flag(c["@archived"]) ?? false
        var details = GeocacheDetails(
            placeId: code, code: code,
            cacheType: clean(c["type"]) ?? clean(w.fields["type"]).map { String($0.split(separator: "|").dropFirst().first ?? "") },
            container: clean(c["container"]), difficulty: clean(c["difficulty"]).flatMap(rating),
            terrain: clean(c["terrain"]).flatMap(rating), owner: clean(c["owner"]), placedBy: clean(c["placed_by"]),
            hint: clean(c["encoded_hints"]), shortDescription: clean(c["short_description"]),
            longDescription: clean(c["long_description"]),
            descriptionIsHTML: (c["@html_long_description"] ?? c["@html_short_description"])?.lowercased() == "true",
            logsCount: w.logsCount, available: available, archived: archived, country: clean(c["country"]),
            region: clean(c["state"]), placedAt: clean(w.fields["time"]).flatMap { ISO8601.parse($0) },
            url: clean(w.fields["url"]))
        if let oLat = clean(w.gsak["LatBeforeCorrect"]).flatMap(Double.init),
           let oLon = clean(w.gsak["LonBeforeCorrect"]).flatMap(Double.init),
           abs(oLat) <= 90, abs(oLon) <= 180 {
            details.originalLatitude = oLat
            details.originalLongitude = oLon
        }
        let place = Place(id: code, kind: .geocache, name: name, latitude: lat, longitude: lon,
                          active: available && !archived,
                          searchText: SearchText.fold("\(name) \(code)"))
        return PlaceDetail(place: place, geocache: details)
    }

    /// A difficulty or terrain rating (1–5); anything else (`nan`, `1e300`) is left unknown
    /// rather than stored for every later reader to trip on.
    package static func rating(_ s: String) -> Double? {
        decimal(s).flatMap { GeocacheDetails.ratingRange.contains($0) ? $0 : nil }
    }

    /// "2,5" appears in German GSAK exports; accept a decimal comma.
    package static func decimal(_ s: String) -> Double? {
        Double(s) ?? Double(s.replacingOccurrences(of: ",", with: "."))
    }

    package static func waypoint(_ w: GPXWaypoint, code: String, type: String, lat: Double, lon: Double) -> PlaceDetail {
        let parent = clean(w.gsak["Parent"])?.uppercased() ?? parentCode(of: code)
        let kindName = type.split(separator: "|").dropFirst().first.map(String.init)
        let desc = clean(w.fields["desc"])
        let name = desc ?? clean(w.fields["urlname"]) ?? code
        let details = WaypointDetails(placeId: code, parentId: parent, waypointType: kindName ?? clean(w.fields["sym"]),
                                      comment: clean(w.fields["cmt"]), description: desc)
        let place = Place(id: code, kind: .waypoint, name: name, latitude: lat, longitude: lon,
                          searchText: SearchText.fold("\(name) \(code)"))
        return PlaceDetail(place: place, waypoint: details)
    }

    /// `OCF19A-1` → `OCF19A`; `PK2T9RW` → `GC2T9RW`.
    static func parentCode(of code: String) -> String {
        if let dash = code.firstIndex(of: "-") { return String(code[..<dash]) }
        guard code.count > 2 else { return code }
        return "GC" + code.dropFirst(2)
    }

    package static func hotcoldPlace(_ w: GPXWaypoint, _ h: [String: String], kind: TargetKind, lat: Double, lon: Double,
                             issue: (String?, String) -> ImportIssue) throws(ImportIssue) -> PlaceDetail {
        guard let id = clean(h["id"]) else { throw issue("hotcold:place id", "missing") }
        let name = clean(w.fields["name"]) ?? id
        if kind == .bigThing {
            // Same checks as a catalogue row.
            var fields: [String: JSONValue] = ["id": .string(id), "name": .string(name),
                                               "lat": .number(lat), "lon": .number(lon)]
            for (k, v) in h where k != "id" && k != "kind" { fields[k] = .string(v) }
            if let d = w.fields["desc"] { fields["description"] = .string(d) }
            fields["tags"] = .array(w.tags.map { .string($0) })
            return try BigThingsImporter.place(from: JSONRow(fields, row: w.index))
        }
        let origin = LocationOrigin(rawValue: h["origin"] ?? "") ?? .custom
        let place = Place(id: id, kind: kind, name: name, latitude: lat, longitude: lon)
        return PlaceDetail(place: place, location: kind == .location ? LocationDetails(placeId: id, origin: origin) : nil)
    }
}
