import Foundation
import GRDB
import HotColdFormats

/// Place ids as people type them: a custom location's id is short (`location:custom-1a2f5f54`),
/// and any id may be given in any case, by an unambiguous prefix of at least
/// ``minimumIDPrefix`` characters — with or without its namespace (`1a2f`, `custom-1a2f`,
/// `d0577` for `halans:d0577fb8cf`) — or by an unambiguous suffix of as many; and a place may
/// be given by its whole name (`"Big Banana"`) when one place has it.
extension Store {
    /// Shorter prefixes are never expanded: `GC` or `big` would match half the catalogue.
    static let minimumIDPrefix = 4

    /// The id `text` stands for: itself when a place has it; else, in this order, the one place
    /// whose id it is in another case, whose id (or id after its namespace) it begins, whose id
    /// it ends, or whose name it is; else `text` unchanged, for the caller's "no such place".
    /// Throws ``StoreError/ambiguousID(_:matches:)`` when several places fit the first rule
    /// that any place fits.
    func resolvePlaceID(_ text: String) throws -> String {
        try database.read { db in try Store.resolvePlaceID(db, text) }
    }

    static func resolvePlaceID(_ db: Database, _ text: String) throws -> String {
        if try Place.exists(db, key: text) { return text }
        // LIKE is case-insensitive for ASCII (ids are ASCII); its wildcards are escaped.
        let literal = text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        var rules: [(String, [any DatabaseValueConvertible])] = [
            ("id LIKE ? ESCAPE '\\'", [literal]),
        ]
        if text.count >= minimumIDPrefix {
            rules += [
                // The prefix in the namespaces people leave out, then after any namespace.
                ("id LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\'",
                 [literal + "%", "location:" + literal + "%", "location:custom-" + literal + "%"]),
                ("instr(id, ':') > 0 AND substr(id, instr(id, ':') + 1) LIKE ? ESCAPE '\\'", [literal + "%"]),
                ("id LIKE ? ESCAPE '\\'", ["%" + literal]),
            ]
        }
        rules.append(("name = ? COLLATE NOCASE", [text]))
        for (condition, arguments) in rules {
            let ids = try String.fetchAll(db, sql: "SELECT id FROM place WHERE \(condition) ORDER BY id LIMIT 4",
                                          arguments: StatementArguments(arguments))
            switch ids.count {
            case 0: continue
            case 1: return ids[0]
            default: throw StoreError.ambiguousID(text, matches: Array(ids.prefix(3)))
            }
        }
        return text
    }

    /// A new custom location's id: 8 hex digits of randomness after the namespace, drawn again
    /// in the rare case the id is taken.
    static func newCustomLocationID(_ db: Database) throws -> String {
        for _ in 0..<8 {
            let id = "location:custom-" + String(format: "%08x", UInt32.random(in: .min ... .max))
            if try !Place.exists(db, key: id) { return id }
        }
        return "location:custom-\(UUID().uuidString.lowercased())"
    }
}
