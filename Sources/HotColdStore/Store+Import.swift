import Foundation
import GRDB
import HotColdCore
import HotColdProtocol
import HotColdFormats

extension Store {
    /// Imports a file of any supported format (detected from content) in one transaction.
    ///
    /// Idempotent by stable id: importing the same file again inserts and updates nothing.
    /// Invalid rows are skipped and listed in the report, unless `strict`, which refuses the
    /// whole file. Malformed files throw ``ImportError`` and store nothing.
    ///
    /// ```swift
    /// let report = try store.importFile(at: URL(fileURLWithPath: "caches.gpx"), user: "alice")
    /// ```
    @discardableResult
    public func importFile(at url: URL, strict: Bool = false, user: String) throws -> ImportReport {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ImportError.unreadable(file: url.path, reason: (error as NSError).localizedDescription)
        }
        return try importData(data, file: url.path, strict: strict, user: user)
    }

    @discardableResult
    public func importData(_ data: Data, file: String, strict: Bool = false, user: String) throws -> ImportReport {
        let batch = try Importer.parse(data, file: file, user: user)
        if strict && !batch.skipped.isEmpty { throw ImportError.rejected(file: file, issues: batch.skipped) }
        // The file's observations and custom locations count against their users' quotas:
        // over any of them, the whole import is rolled back.
        let owners = Set(batch.observations.map(\.user) + batch.places.compactMap { $0.location?.createdBy })
        // The places it adds count against the importing user's `imported_places_per_user`.
        return try write { [quotas] db in
            let report = try Store.write(batch, file: file, db, importedBy: user)
            try Store.requireWithinQuotas(db, quotas, users: owners)
            try Store.requireWithinImportQuota(db, quotas, user: user)
            return report
        }
    }

    /// Writes a parsed batch: each place inserted, updated when something differs, or left alone.
    /// `importedBy` (nil for a catalogue sync) is recorded against each place inserted.
    static func write(_ batch: ImportBatch, file: String, _ db: Database, importedBy: String? = nil) throws -> ImportReport {
        var report = ImportReport(file: file, format: batch.format, skipped: batch.skipped, warnings: batch.warnings)
        for detail in batch.places {
            guard let existing = try placeDetail(db, id: detail.id) else {
                try insert(detail, db)
                if let importedBy {
                    try db.execute(sql: "INSERT INTO place_import (place_id, user) VALUES (?, ?)", arguments: [detail.id, importedBy])
                }
                report.inserted += 1
                continue
            }
            if existing.place.kind != detail.place.kind {
                report.skipped.append(ImportIssue(id: detail.id, name: detail.place.name, field: "id",
                                                  message: "already used by a \(existing.place.kind) in the store; skipped"))
                continue
            }
            var incoming = detail
            // Compare dates as the database stores them (milliseconds), or sub-millisecond
            // GPX times would look changed on every import.
            if var g = incoming.geocache {
                g.placedAt = g.placedAt.map(Store.storedDate)
                incoming.geocache = g
            }
            incoming.waypoints = existing.waypoints
            // A renamed custom location keeps the user's name; everything else follows the file.
            if let loc = existing.location, loc.origin == .custom, incoming.location?.origin == .custom {
                incoming.place.name = existing.place.name
                incoming.place.searchText = existing.place.searchText
                incoming.location = loc
            }
            // A withdrawal recorded by a catalogue sync outlives re-imports of an older file.
            if let old = existing.bigThing, old.withdrawn, var b = incoming.bigThing, !b.withdrawn {
                b.withdrawn = true
                incoming.bigThing = b
                incoming.place.active = false
            }
            if incoming == existing {
                report.unchanged += 1
            } else {
                try incoming.place.update(db)
                try incoming.bigThing?.upsert(db)
                try incoming.geocache?.upsert(db)
                try incoming.waypoint?.upsert(db)
                try incoming.location?.upsert(db)
                report.updated += 1
            }
        }
        for o in batch.observations {
            if let old = try Observation.fetchOne(db, key: o.id) {
                var o2 = o
                o2.observedAt = Store.storedDate(o.observedAt)
                o2.user = old.user    // who recorded it first keeps the credit
                if o2 == old { report.unchanged += 1 } else { try o2.update(db); report.updated += 1 }
            } else {
                try o.insert(db)
                report.inserted += 1
            }
        }
        return report
    }

    /// A date as it reads back from the database.
    static func storedDate(_ d: Date) -> Date { StoredDate.date(StoredDate.string(d)) ?? d }

    static func insert(_ d: PlaceDetail, _ db: Database) throws {
        try d.place.insert(db)
        try d.bigThing?.insert(db)
        try d.geocache?.insert(db)
        try d.waypoint?.insert(db)
        try d.location?.insert(db)
    }

    /// Loads the bundled Big Things catalogue when the store has no Big Things yet (first start).
    /// Returns the report, or nil when there was nothing to do.
    @discardableResult
    public func loadBundledCatalogueIfEmpty(user: String = CurrentUser.name) throws -> ImportReport? {
        let hasAny = try database.read { db in
            try Place.filter(Place.Columns.kind == TargetKind.bigThing.rawValue).fetchCount(db) > 0
        }
        if hasAny { return nil }
        let url = try BundledData.catalogueURL()
        return try importFile(at: url, user: user)
    }
}
