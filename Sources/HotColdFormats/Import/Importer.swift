import HotColdProtocol
import Foundation

/// Recognises a file's format from its content and parses it into an ``ImportBatch``.
///
/// ```swift
/// let data = try Data(contentsOf: url)
/// let format = try Importer.detect(data, file: "bigthings.json")   // .bigThingsCatalogue
/// let batch = try Importer.parse(data, file: "bigthings.json", user: "alice")
/// ```
public enum Importer {
    /// XML with a `<loc>` root is Groundspeak LOC, other XML GPX; JSON is told apart by its top-level members.
    public static func detect(_ data: Data, file: String) throws(ImportError) -> ImportFormat {
        let (format, _) = try detectAndRead(data, file: file)
        return format
    }

    public static func parse(_ data: Data, file: String, user: String) throws(ImportError) -> ImportBatch {
        let (format, json) = try detectAndRead(data, file: file)
        switch format {
        case .gpx: return try GPXImporter.parse(data, file: file)
        case .loc: return try LOCImporter.parse(data, file: file)
        case .bigThingsCatalogue, .bigThingsAPI: return try BigThingsImporter.parse(json!, format: format, file: file)
        case .locationsFeed: return try LocationsFeedImporter.parse(json!, file: file)
        case .observations: return try ObservationsImporter.parse(json!, file: file, user: user)
        case .geoJSON: return try GeoJSONImporter.parse(json!, file: file)
        case .ownTracksWaypoints: return try OwnTracksWaypointsImporter.parse(json!, file: file)
        }
    }

    package static func detectAndRead(_ data: Data, file: String) throws(ImportError) -> (ImportFormat, JSONValue?) {
        let bytes = [UInt8](data)
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count else { throw .unrecognisedFormat(file: file, reason: "the file is empty") }
        if bytes[i] == UInt8(ascii: "<") { return (LOCImporter.looksLikeLOC(bytes, from: i) ? .loc : .gpx, nil) }
        let json: JSONValue
        do { json = try JSONReader.parse(bytes) } catch {
            throw .malformed(file: file, line: error.line, column: error.column, message: error.message)
        }
        guard let top = json.object else {
            throw .unrecognisedFormat(file: file, reason: "the JSON is not an object")
        }
        if top["things"] != nil { return (top["meta"] != nil ? .bigThingsCatalogue : .bigThingsAPI, json) }
        if top["locations"] != nil { return (.locationsFeed, json) }
        if top["observations"] != nil { return (.observations, json) }
        if let t = top["type"]?.string, t == "FeatureCollection" || t == "Feature" { return (.geoJSON, json) }
        if OwnTracksWaypointsImporter.recognises(top) { return (.ownTracksWaypoints, json) }
        throw .unrecognisedFormat(file: file, reason: "a JSON object with none of things, locations, observations, a GeoJSON type or OwnTracks waypoints")
    }
}
