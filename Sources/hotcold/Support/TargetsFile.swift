import Foundation
import HotColdCore
import HotColdStore

/// Reads `--targets FILE`: a JSON array of `{"id","name","lat","lon","kind"?}` (replay's own
/// small format), or any file `hotcold import` reads — a Big Things catalogue or API list, a
/// geocache GPX file, GeoJSON, a locations feed — through the importers' parse step, so replay
/// sees the places an import would store (the catalogue's `same_object_as` rows dropped, the same
/// rows refused) without a database.
enum TargetsFile {
    struct Row: Decodable {
        var id: String
        var name: String
        var lat: Double
        var lon: Double
        var kind: String?
    }

    static func load(_ path: String) throws -> [Target] {
        let data = try ImportableFile.contents(of: URL(fileURLWithPath: path), what: "targets file")
        if data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "[") {
            return try loadRows(data, path: path)
        }
        return try loadImportable(data, path: path)
    }

    /// A file the importers read: its active places (GPX's in id order), as the daemon would
    /// track them once imported. Rows the importer would skip (and
    /// `hotcold import` names) are left out quietly: replay's stderr is for the track.
    private static func loadImportable(_ data: Data, path: String) throws -> [Target] {
        let batch: ImportBatch
        do {
            batch = try Importer.parse(data, file: path, user: CurrentUser.name)
        } catch {
            throw CLIError("\(error)")          // names the file, line and column itself
        }
        // From GPX, geocaches and their waypoints (plain waypoints would be custom locations).
        // Inactive places (a demolished Big Thing, an archived cache) are left out, as the
        // daemon leaves them out of what it tracks.
        let targets = batch.places.map(\.place)
            .filter { $0.active }
            .filter { batch.format != .gpx || $0.kind == .geocache || $0.kind == .waypoint }
            .map(\.target)
        guard !targets.isEmpty else {
            throw CLIError(batch.format == .gpx ? "\(path): no geocaches or waypoints in this GPX file"
                                                : "\(path): no places to use as targets in this \(batch.format.rawValue) file")
        }
        // File order otherwise: the engine reports targets at the same instant in this order.
        return batch.format == .gpx ? targets.sorted { $0.id < $1.id } : targets
    }

    private static func loadRows(_ data: Data, path: String) throws -> [Target] {
        let rows: [Row]
        do {
            rows = try JSONDecoder().decode([Row].self, from: data)
        } catch let DecodingError.dataCorrupted(ctx) {
            throw CLIError("\(path): not valid JSON: \(ctx.debugDescription) \(describe(ctx.codingPath))")
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw CLIError("\(path): \(describe(ctx.codingPath)) has no field \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw CLIError("\(path): \(describe(ctx.codingPath)): \(ctx.debugDescription)")
        } catch {
            throw CLIError("\(path): expected a JSON array of {\"id\",\"name\",\"lat\",\"lon\"}: \(error)")
        }
        var targets: [Target] = []
        for (i, r) in rows.enumerated() {
            let c = Coordinate(latitude: r.lat, longitude: r.lon)
            guard c.isValid else {
                throw CLIError("\(path): row \(i + 1) (\(r.name)): coordinate \(r.lat),\(r.lon) is out of range")
            }
            targets.append(Target(id: r.id, name: r.name, kind: TargetKind(r.kind ?? "point"), coordinate: c))
        }
        return targets
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        path.map { k in k.intValue.map { "row \($0 + 1)" } ?? k.stringValue }.joined(separator: " ")
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
