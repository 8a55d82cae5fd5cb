import Foundation
import HotColdCore
import HotColdStore

/// Reads `--targets FILE`: a JSON array of `{"id","name","lat","lon","kind"?}`, a Big Things
/// catalogue (`{"things":[...]}`, the bundled file's and the web API's shape), or a geocache
/// GPX file (imported through the store's own importer into a scratch database).
enum TargetsFile {
    struct Row: Decodable {
        var id: String
        var name: String
        var lat: Double
        var lon: Double
        var kind: String?
        /// Catalogue rows that duplicate another row say so; replay keeps only the original.
        var same_object_as: String?
    }

    struct Catalogue: Decodable {
        var things: [Row]
    }

    static func load(_ path: String) throws -> [Target] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("cannot read targets file \(path): \(error.localizedDescription)")
        }
        if data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "<") {
            return try loadGPX(path)
        }
        let rows: [Row]
        let isCatalogue = data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{")
        do {
            rows = isCatalogue
                ? try JSONDecoder().decode(Catalogue.self, from: data).things.filter { $0.same_object_as == nil }.map { r in
                    var r = r
                    r.kind = r.kind ?? "bigthing"
                    return r
                }
                : try JSONDecoder().decode([Row].self, from: data)
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

    /// Geocaches (and their waypoints) from a GPX file, read by the same code that imports them.
    private static func loadGPX(_ path: String) throws -> [Target] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let store = try Store.open(path: dir.appendingPathComponent("targets.sqlite").path)
            _ = try store.importFile(at: URL(fileURLWithPath: path), strict: false, user: CurrentUser.name)
            let targets = try store.targets(filter: TargetFilter(kinds: [.geocache, .waypoint], includeInactive: true))
            guard !targets.isEmpty else { throw CLIError("\(path): no geocaches or waypoints in this GPX file") }
            return targets.sorted { $0.id < $1.id }
        } catch let e as CLIError {
            throw e
        } catch let e as ImportError {
            throw CLIError("\(e)")          // names the file, line and column itself
        } catch {
            throw CLIError("\(path): \(error)")
        }
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        path.map { k in k.intValue.map { "row \($0 + 1)" } ?? k.stringValue }.joined(separator: " ")
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
