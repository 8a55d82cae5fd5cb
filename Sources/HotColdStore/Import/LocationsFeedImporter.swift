import Foundation
import HotColdCore

/// Reads the locations feed (`{"locations": [{"name", "lat", "lng"}], "updated"}`) as
/// **default** locations: their names are read-only, their ids come from the name
/// (`location:bondi-beach`), so a newer feed updates the same rows.
///
/// ```swift
/// let batch = try LocationsFeedImporter.parse(json, file: "cochlear-test-locations.json")
/// ```
public enum LocationsFeedImporter {
    public static func parse(_ root: JSONValue, file: String) throws(ImportError) -> ImportBatch {
        guard let list = root["locations"]?.array else {
            throw .structure(file: file, message: "expected a \"locations\" array at the top level")
        }
        var batch = ImportBatch(format: .locationsFeed)
        var seen = Set<String>()
        for (i, value) in list.enumerated() {
            guard let fields = value.object else {
                batch.skipped.append(ImportIssue(row: i + 1, message: "expected an object, found \(value.brief)"))
                continue
            }
            var row = JSONRow(fields, row: i + 1)
            do throws(ImportIssue) {
                let name = try row.requiredText("name")
                let id = "location:" + slug(name)
                row.id = id
                let lonKey = fields["lng"] != nil ? "lng" : "lon"
                let (lat, lon) = try row.coordinate(lat: "lat", lon: lonKey)
                guard seen.insert(id).inserted else {
                    batch.warnings.append(row.issue("name", "repeats an earlier location's name; skipped"))
                    continue
                }
                let place = Place(id: id, kind: .location, name: name, latitude: lat, longitude: lon)
                batch.places.append(PlaceDetail(place: place, location: LocationDetails(placeId: id, origin: .default)))
            } catch {
                batch.skipped.append(error)
            }
        }
        return batch
    }

    /// `Milsons Point` → `milsons-point`; accents folded, anything else becomes a dash.
    public static func slug(_ text: String) -> String {
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
