import Foundation
import HotColdCore

/// Reads `--targets FILE`: a JSON array of `{"id","name","lat","lon","kind"?}`, or a Big Things
/// catalogue (`{"things":[...]}`, the bundled file's and the web API's shape).
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

    private static func describe(_ path: [any CodingKey]) -> String {
        path.map { k in k.intValue.map { "row \($0 + 1)" } ?? k.stringValue }.joined(separator: " ")
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
