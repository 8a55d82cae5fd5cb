import Foundation
import GRDB
import HotColdCore
import HotColdFormats

extension Store {
    /// How many places one page of a streamed export reads and writes at a time: the export's
    /// memory is one page, whatever the catalogue's size.
    static let exportPageSize = 500

    /// Every place with its details, ordered by id (kinds filtered when given).
    public func allPlaces(kinds: Set<TargetKind>? = nil) throws -> [PlaceDetail] {
        var all: [PlaceDetail] = []
        try database.read { db in
            try Store.placePages(db, kinds: kinds) { all += $0 }
        }
        return all
    }

    /// Places (or, with `visits`, this user's visits) as GPX or GeoJSON bytes.
    ///
    /// ```swift
    /// let data = try store.export(format: .geojson, visits: true, user: "alice")
    /// ```
    public func export(format: ExportFormat, visits: Bool = false, user: String, kinds: Set<TargetKind>? = nil) throws -> Data {
        var out = Data()
        try export(format: format, visits: visits, user: user, kinds: kinds) { out.append($0) }
        return out
    }

    /// The same export, handed to `write` a page at a time (a few hundred places) from one
    /// read snapshot, so a catalogue of any size is exported in bounded memory. A throw from
    /// `write` (a full disk, a quota) stops the export.
    ///
    /// ```swift
    /// try store.export(format: .gpx, user: "alice") { try file.write(contentsOf: $0) }
    /// ```
    public func export(format: ExportFormat, visits: Bool = false, user: String, kinds: Set<TargetKind>? = nil,
                       to write: (Data) throws -> Void) throws {
        if visits {
            // One user's visits, bounded by their quota: written whole.
            let v = try self.visits(user: user)
            switch format {
            case .gpx: try write(Data(GPXExporter.visits(v).utf8))
            case .geojson: try write(try GeoJSONExporter.visits(v))
            }
            return
        }
        try database.read { db in
            switch format {
            case .gpx:
                try write(Data(GPXExporter.header("hotcold places").utf8))
                try Store.placePages(db, kinds: kinds) { page in
                    var text = ""
                    for d in page { GPXExporter.write(d, into: &text) }
                    try write(Data(text.utf8))
                }
                try write(Data("</gpx>\n".utf8))
            case .geojson:
                var first = true
                try write(GeoJSONExporter.collectionHead)
                try Store.placePages(db, kinds: kinds) { page in
                    var chunk = Data()
                    for d in page {
                        chunk.append(contentsOf: first ? [] : Array(",\n".utf8))
                        chunk.append(try GeoJSONExporter.encode(GeoJSONExporter.feature(d)))
                        first = false
                    }
                    try write(chunk)
                }
                try write(GeoJSONExporter.collectionTail)
            }
        }
    }

    /// Calls `body` with successive pages of places and their details, in id order (keyset
    /// paging: each page starts after the last id of the one before).
    static func placePages(_ db: Database, kinds: Set<TargetKind>?, _ body: ([PlaceDetail]) throws -> Void) throws {
        var after: String?
        while true {
            var req = Place.order(Place.Columns.id).limit(exportPageSize)
            if let kinds { req = req.filter(kinds.map(\.rawValue).contains(Place.Columns.kind)) }
            if let after { req = req.filter(Place.Columns.id > after) }
            let places = try req.fetchAll(db)
            guard let last = places.last else { return }
            let ids = places.map(\.id)
            func details<T: FetchableRecord & TableRecord>(_ t: T.Type, _ key: KeyPath<T, String>) throws -> [String: T] {
                Dictionary(try T.filter(ids.contains(Column("place_id"))).fetchAll(db).map { ($0[keyPath: key], $0) },
                           uniquingKeysWith: { a, _ in a })
            }
            let big = try details(BigThingDetails.self, \.placeId)
            let caches = try details(GeocacheDetails.self, \.placeId)
            let wpts = try details(WaypointDetails.self, \.placeId)
            let locs = try details(LocationDetails.self, \.placeId)
            try body(places.map { p in
                PlaceDetail(place: p, bigThing: big[p.id], geocache: caches[p.id], waypoint: wpts[p.id], location: locs[p.id])
            })
            after = last.id
        }
    }
}
