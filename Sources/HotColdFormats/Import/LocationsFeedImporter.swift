import HotColdProtocol
import Foundation
import HotColdCore

/// Reads the locations feed (`{"locations": [{"name", "lat", "lng"}], "updated"}`) as
/// **default** locations: their names are read-only, their ids come from the name
/// (`location:bondi-beach`), so a newer feed updates the same rows.
///
/// ```swift
/// let batch = try LocationsFeedImporter.parse(json, file: "cochlear-test-locations.json")
/// ```
enum LocationsFeedImporter {
    public static func parse(_ root: JSONValue, file: String) throws(ImportError) -> ImportBatch {
        guard let list = root["locations"]?.array else {
            throw .structure(file: file, message: "expected a \"locations\" array at the top level")
        }
        var batch = ImportBatch(format: .locationsFeed)
        batch.addRows(list, repeatField: "name", repeatMessage: "repeats an earlier location's name; skipped") { row throws(ImportIssue) in
            let name = try row.requiredText("name")
            let id = "location:" + slug(name)
            row.id = id
            let lonKey = row.fields["lng"] != nil ? "lng" : "lon"
            let (lat, lon) = try row.coordinate(lat: "lat", lon: lonKey)
            let place = Place(id: id, kind: .location, name: name, latitude: lat, longitude: lon)
            return PlaceDetail(place: place, location: LocationDetails(placeId: id, origin: .default))
        }
        return batch
    }

    /// `Milsons Point` → `milsons-point`; accents folded, anything else becomes a dash.
    static func slug(_ text: String) -> String {
        var out = ""
        for ch in SearchText.fold(text).unicodeScalars {
            if CharacterSet.alphanumerics.contains(ch) && ch.isASCII {
                out.unicodeScalars.append(ch)
            } else if !out.hasSuffix("-") && !out.isEmpty {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "unnamed" : out
    }
}
