import Foundation
import GRDB
import HotColdCore

extension Store {
    /// Every place with its details, ordered by id (kinds filtered when given).
    public func allPlaces(kinds: Set<TargetKind>? = nil) throws -> [PlaceDetail] {
        try database.read { db in
            var req = Place.order(Place.Columns.id)
            if let kinds { req = req.filter(kinds.map(\.rawValue).contains(Place.Columns.kind)) }
            let places = try req.fetchAll(db)
            let big = Dictionary(uniqueKeysWithValues: try BigThingDetails.fetchAll(db).map { ($0.placeId, $0) })
            let caches = Dictionary(uniqueKeysWithValues: try GeocacheDetails.fetchAll(db).map { ($0.placeId, $0) })
            let wpts = Dictionary(uniqueKeysWithValues: try WaypointDetails.fetchAll(db).map { ($0.placeId, $0) })
            let locs = Dictionary(uniqueKeysWithValues: try LocationDetails.fetchAll(db).map { ($0.placeId, $0) })
            return places.map { p in
                PlaceDetail(place: p, bigThing: big[p.id], geocache: caches[p.id], waypoint: wpts[p.id], location: locs[p.id])
            }
        }
    }

    /// Places (or, with `visits`, this user's visits) as GPX or GeoJSON bytes.
    ///
    /// ```swift
    /// let data = try store.export(format: .geojson, visits: true, user: "alice")
    /// ```
    public func export(format: ExportFormat, visits: Bool = false, user: String, kinds: Set<TargetKind>? = nil) throws -> Data {
        if visits {
            let v = try self.visits(user: user)
            switch format {
            case .gpx: return Data(GPXExporter.visits(v).utf8)
            case .geojson: return try GeoJSONExporter.visits(v)
            }
        }
        let places = try allPlaces(kinds: kinds)
        switch format {
        case .gpx: return Data(GPXExporter.places(places).utf8)
        case .geojson: return try GeoJSONExporter.places(places)
        }
    }
}
