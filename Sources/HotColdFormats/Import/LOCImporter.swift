import Foundation
import HotColdCore
import HotColdProtocol
import XMLStream

/// Reads Groundspeak `.loc` files (geocaching.com's "LOC" download: `<loc>` with one
/// `<waypoint>` per cache: `<name id="GC…">Name by Owner</name>`, `<coord lat lon/>`,
/// `<type>`, `<link>`, and sometimes difficulty, terrain and container). Each becomes a
/// geocache keyed by its code, so a later GPX of the same cache updates it; a waypoint with no
/// cache code becomes a custom location, as a plain GPX waypoint does.
///
/// ```swift
/// let batch = try LOCImporter.parse(data, file: "geocaching.loc")
/// ```
enum LOCImporter {
    /// One `<waypoint>`'s fields as read.
    package struct Waypoint {
        var line: Int
        var index: Int
        var code: String?
        var name: String?
        var lat: String?
        var lon: String?
        var fields: [String: String] = [:]
    }

    package static let fields: Set<String> = ["name", "type", "link", "difficulty", "terrain", "container"]

    public static func parse(_ data: Data, file: String) throws(ImportError) -> ImportBatch {
        let waypoints: [Waypoint]
        do { waypoints = try read(data) } catch {
            throw .malformed(file: file, line: error.line, column: error.column, message: "malformed XML: \(error.message)")
        }
        var batch = ImportBatch(format: .loc)
        var seen = Set<String>()
        for w in waypoints {
            do throws(ImportIssue) {
                let detail = try place(from: w)
                guard seen.insert(detail.id).inserted else {
                    batch.warnings.append(ImportIssue(row: w.index, line: w.line, id: detail.id, name: detail.place.name,
                                                      message: "repeats an earlier waypoint; skipped"))
                    continue
                }
                batch.places.append(detail)
            } catch {
                batch.skipped.append(error)
            }
        }
        return batch
    }

    /// True for a document whose root element is `<loc>` (looked for in its first bytes).
    package static func looksLikeLOC(_ bytes: [UInt8], from start: Int) -> Bool {
        let head = String(decoding: bytes[start..<min(bytes.count, start + 2048)], as: UTF8.self)
        guard let root = head.range(of: #"<(?![?!])[A-Za-z_][\w.:-]*"#, options: .regularExpression) else { return false }
        return head[root].dropFirst() == "loc"
    }

    package static func place(from w: Waypoint) throws(ImportIssue) -> PlaceDetail {
        let code = GPXImporter.clean(w.code)?.uppercased()
        let text = GPXImporter.clean(w.name)
        func issue(_ field: String?, _ message: String) -> ImportIssue {
            ImportIssue(row: w.index, line: w.line, id: code, name: text ?? code, field: field, message: message)
        }
        guard let latText = w.lat, let lat = Double(latText.trimmingCharacters(in: .whitespaces)), lat.isFinite else {
            throw issue("coord lat", w.lat == nil ? "missing" : "\"\(w.lat!)\" is not a number")
        }
        guard let lonText = w.lon, let lon = Double(lonText.trimmingCharacters(in: .whitespaces)), lon.isFinite else {
            throw issue("coord lon", w.lon == nil ? "missing" : "\"\(w.lon!)\" is not a number")
        }
        guard abs(lat) <= 90 else { throw issue("coord lat", "latitude \(lat) is out of range (-90…90)") }
        guard abs(lon) <= 180 else { throw issue("coord lon", "longitude \(lon) is out of range (-180…180)") }
        let type = GPXImporter.clean(w.fields["type"]) ?? "Geocache"
        guard let code, type.lowercased().hasPrefix("geocache") else {
            let name = text ?? code ?? "Waypoint \(w.index)"
            let id = "location:loc-" + StableHash.hex("\(name)\u{1F}\(lat)\u{1F}\(lon)")
            let place = Place(id: id, kind: .location, name: name, latitude: lat, longitude: lon)
            return PlaceDetail(place: place, location: LocationDetails(placeId: id, origin: .custom))
        }
        // geocaching.com writes "Cache name by Owner": the owner is what follows the last " by ".
        var name = text ?? code
        var owner: String?
        if let by = name.range(of: " by ", options: .backwards), by.lowerBound > name.startIndex,
           let o = GPXImporter.clean(String(name[by.upperBound...])) {
            owner = o
            name = String(name[..<by.lowerBound])
        }
        let details = GeocacheDetails(
            placeId: code, code: code, container: GPXImporter.clean(w.fields["container"]).map(Self.containerName),
            difficulty: GPXImporter.clean(w.fields["difficulty"]).flatMap(GPXImporter.rating),
            terrain: GPXImporter.clean(w.fields["terrain"]).flatMap(GPXImporter.rating),
            owner: owner, url: GPXImporter.clean(w.fields["link"]))
        let place = Place(id: code, kind: .geocache, name: name, latitude: lat, longitude: lon,
                          searchText: SearchText.fold("\(name) \(code)"))
        return PlaceDetail(place: place, geocache: details)
    }

    /// The document's `<waypoint>`s, through the streaming scanner GPX uses.
    package static func read(_ data: Data) throws(XMLScanner.Failure) -> [Waypoint] {
        if let bad = GPXWaypointReader.firstInvalidUTF8(in: data) {
            throw XMLScanner.Failure(line: bad.line, column: bad.column, message: "not valid UTF-8 (LOC is read as UTF-8)")
        }
        let scanner = XMLScanner(source: data.withUnsafeBytes { XMLBytes($0) },
                                 maximumTextLength: GPXWaypointReader.maximumTextLength, longText: .fail)
        var out: [Waypoint] = []
        var current: Waypoint?
        var names: [String] = []
        do {
            while let event = try scanner.next() {
                switch event {
                case .start(let selfClosing):
                    let name = String(decoding: scanner.localName, as: UTF8.self)
                    names.append(name)
                    if names.count == 2, name == "waypoint" {
                        current = Waypoint(line: scanner.tagLine, index: out.count + 1)
                    } else if names.count == 3, current != nil {
                        if name == "name" { current!.code = scanner.attribute("id").map { String(decoding: $0, as: UTF8.self) } }
                        if name == "coord" {
                            current!.lat = scanner.attribute("lat").map { String(decoding: $0, as: UTF8.self) }
                            current!.lon = scanner.attribute("lon").map { String(decoding: $0, as: UTF8.self) }
                        }
                    }
                    if selfClosing { close(&names, &current, &out, text: []) }
                case .end:
                    close(&names, &current, &out, text: scanner.text)
                }
            }
        } catch let failure as XMLScanner.Failure {
            throw failure
        } catch {
            throw XMLScanner.Failure(line: scanner.line, column: scanner.column, message: "\(error)")
        }
        return out
    }

    private static func close(_ names: inout [String], _ current: inout Waypoint?, _ out: inout [Waypoint], text: [UInt8]) {
        let name = names.removeLast()
        guard current != nil else { return }
        if names.count == 1, name == "waypoint" {
            out.append(current!)
            current = nil
        } else if names.count == 2, fields.contains(name) {
            let value = String(decoding: text, as: UTF8.self)
            if name == "name" { current!.name = value } else { current!.fields[name] = value }
        }
    }

    /// geocaching.com's LOC files give the container as a number; people read its name.
    static func containerName(_ code: String) -> String {
        switch code {
        case "1": "Not chosen"
        case "2": "Micro"
        case "3": "Regular"
        case "4": "Large"
        case "5": "Virtual"
        case "6": "Other"
        case "8": "Small"
        default: code
        }
    }
}
