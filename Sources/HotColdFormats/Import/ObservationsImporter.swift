import HotColdProtocol
import Foundation
import HotColdCore

/// Reads field-survey observations (`{"status", "observations": [{classification, title,
/// description, date}]}`). Dates are `YYYY-MM-DD HH:MM` or ISO-8601.
///
/// Unlike place lists, one bad row refuses the whole file (``ImportError/invalidRow(file:issue:)``):
/// an observation's classification or date cannot be guessed, and a survey half imported is
/// worse than one not imported.
///
/// The plain `YYYY-MM-DD HH:MM` form carries no zone; it is read as UTC, because the feed's
/// ISO-8601 variant gives the same clock times with `Z`.
///
/// ```swift
/// let batch = try ObservationsImporter.parse(json, file: "field-observations.json", user: "alice")
/// ```
public enum ObservationsImporter {
    public static func parse(_ root: JSONValue, file: String, user: String) throws(ImportError) -> ImportBatch {
        guard let list = root["observations"]?.array else {
            throw .structure(file: file, message: "expected an \"observations\" array at the top level")
        }
        var batch = ImportBatch(format: .observations)
        var ids = Set<String>()
        for (i, value) in list.enumerated() {
            guard let fields = value.object else {
                throw .invalidRow(file: file, issue: ImportIssue(row: i + 1, message: "expected an object, found \(value.brief)"))
            }
            var row = JSONRow(fields, row: i + 1)
            do throws(ImportIssue) {
                row.name = try row.text("title")
                let classText = try row.requiredText("classification")
                guard let classification = ObservationClassification(rawValue: classText.lowercased()) else {
                    throw row.issue("classification", "\"\(classText)\" is not one of "
                        + ObservationClassification.allCases.map(\.rawValue).joined(separator: ", "))
                }
                let title = try row.requiredText("title")
                let dateText = try row.requiredText("date")
                guard let date = parseDate(dateText) else {
                    throw row.issue("date", "\"\(dateText)\" is not a date (expected YYYY-MM-DD HH:MM or ISO-8601)")
                }
                var coordinate: Coordinate?
                let latKey = fields["lat"] != nil ? "lat" : "latitude"
                let lonKey = fields["lon"] != nil ? "lon" : (fields["lng"] != nil ? "lng" : "longitude")
                if fields[latKey] != nil || fields[lonKey] != nil {
                    let (lat, lon) = try row.coordinate(lat: latKey, lon: lonKey)
                    coordinate = Coordinate(latitude: lat, longitude: lon)
                }
                let id = try row.text("id") ?? "obs:" + StableHash.hex(
                    [classification.rawValue, title, String(date.timeIntervalSince1970)].joined(separator: "\u{1F}"))
                guard ids.insert(id).inserted else { continue }   // the same row twice is one observation
                batch.observations.append(Observation(
                    id: id, user: user, classification: classification, title: title,
                    description: try row.text("description"), observedAt: date, coordinate: coordinate))
            } catch {
                throw .invalidRow(file: file, issue: error)
            }
        }
        return batch
    }

    /// `2017-06-14 18:00` (UTC), or any ISO-8601 time `ISO8601.parse` accepts.
    public static func parseDate(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let d = ISO8601.parse(t) { return d }
        let u = Array(t.utf8)
        guard u.count == 16, u[4] == 45, u[7] == 45, u[10] == 32 || u[10] == 84, u[13] == 58 else { return nil }
        return ISO8601.parse(t + ":00Z")
    }
}
