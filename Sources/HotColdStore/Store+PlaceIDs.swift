import Foundation
import GRDB
import HotColdFormats

/// Place ids as people type them: a custom location's id is short (`location:custom-1a2f5f54`),
/// and any id may be given by an unambiguous prefix of at least ``minimumIDPrefix`` characters,
/// with or without the `location:` / `location:custom-` namespace (`1a2f`, `custom-1a2f`).
extension Store {
    /// Shorter prefixes are never expanded: `GC` or `big` would match half the catalogue.
    public static let minimumIDPrefix = 4

    /// The id `text` stands for: itself when a place has it; else the one place whose id it
    /// begins (in that namespace order); else `text` unchanged, for the caller's "no such place".
    /// Throws ``StoreError/ambiguousID(_:matches:)`` when several places share the prefix.
    public func resolvePlaceID(_ text: String) throws -> String {
        try database.read { db in try Store.resolvePlaceID(db, text) }
    }

    static func resolvePlaceID(_ db: Database, _ text: String) throws -> String {
        if try Place.exists(db, key: text) { return text }
        guard text.count >= minimumIDPrefix else { return text }
        var matches: [String] = []
        for prefix in [text, "location:" + text, "location:custom-" + text] {
            // A range on the primary key: the index answers it, and no LIKE escaping is needed.
            // U+10FFFF sorts after every other character in SQLite's binary (UTF-8) order.
            let ids = try String.fetchAll(db, sql: "SELECT id FROM place WHERE id >= ? AND id < ? ORDER BY id LIMIT 4",
                                          arguments: [prefix, prefix + "\u{10FFFF}"])
            for id in ids where !matches.contains(id) { matches.append(id) }
            if !matches.isEmpty { break }
        }
        switch matches.count {
        case 0: return text
        case 1: return matches[0]
        default: throw StoreError.ambiguousID(text, matches: Array(matches.prefix(3)))
        }
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
