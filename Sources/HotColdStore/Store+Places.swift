import Foundation
import GRDB
import HotColdProtocol
import HotColdCore
import HotColdFormats

extension Store {
    /// Everything about one place, or nil when the id is unknown.
    public func place(id: String) throws -> PlaceDetail? {
        try database.read { db in try Store.placeDetail(db, id: try Store.resolvePlaceID(db, id)) }
    }

    static func placeDetail(_ db: Database, id: String) throws -> PlaceDetail? {
        guard let place = try Place.fetchOne(db, key: id) else { return nil }
        var d = PlaceDetail(place: place)
        switch place.kind {
        case .bigThing: d.bigThing = try BigThingDetails.fetchOne(db, key: id)
        case .geocache:
            d.geocache = try GeocacheDetails.fetchOne(db, key: id)
            d.waypoints = try Place.fetchAll(db, sql: """
                SELECT place.* FROM place JOIN waypoint ON waypoint.place_id = place.id
                WHERE waypoint.parent_id = ? ORDER BY place.id
                """, arguments: [id])
        case .waypoint: d.waypoint = try WaypointDetails.fetchOne(db, key: id)
        case .location: d.location = try LocationDetails.fetchOne(db, key: id)
        default: break
        }
        return d
    }

    /// The places the daemon should track, as engine targets, ordered by id.
    ///
    /// One SELECT; with a radius, SQLite prefilters on a latitude/longitude box and the exact
    /// WGS84 distance decides.
    public func targets(filter: TargetFilter) throws -> [Target] {
        try database.read { db in try Store.targets(db, filter: filter) }
    }

    static func targets(_ db: Database, filter: TargetFilter) throws -> [Target] {
        var clauses: [String] = []
        var args: [any DatabaseValueConvertible] = []
        if let kinds = filter.kinds {
            if kinds.isEmpty { return [] }
            clauses.append("kind IN (\(Array(repeating: "?", count: kinds.count).joined(separator: ",")))")
            args += kinds.map(\.rawValue).sorted()
        }
        if !filter.includeInactive { clauses.append("active") }
        if let user = filter.favouritesOf {
            clauses.append("EXISTS (SELECT 1 FROM favourite f WHERE f.place_id = place.id AND f.user = ?)")
            args.append(user)
        }
        if let user = filter.unseenBy {
            clauses.append("NOT EXISTS (SELECT 1 FROM visit v WHERE v.place_id = place.id AND v.user = ?)")
            args.append(user)
        }
        let whereSQL = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, name, kind, latitude, longitude FROM place \(whereSQL) ORDER BY id
            """, arguments: StatementArguments(args))
        var out: [Target] = []
        while let row = try rows.next() {
            let c = Coordinate(latitude: row[3], longitude: row[4])
            out.append(Target(id: row[0], name: row[1], kind: TargetKind(rawValue: row[2]), coordinate: c))
        }
        return out
    }

    /// Loads the filtered targets and builds a spatial index over them, for roaming.
    public func spatialIndex(filter: TargetFilter) throws -> SpatialIndex {
        SpatialIndex(try targets(filter: filter))
    }

    /// A page of the places matching a `search` (the protocol's request, the one definition of
    /// the query: text, state, kinds, order, origin, page), with this user's state; `more` when
    /// rows follow the page.
    ///
    /// ```swift
    /// let page = try store.search(SearchRequest(text: "banana", sort: "name"), user: "alice")
    /// ```
    public func search(_ query: SearchRequest, user: String) throws -> (rows: [PlaceSummary], more: Bool) {
        let sort = PlaceSort(rawValue: query.sort) ?? .name
        if sort == .distance && query.origin == nil { throw StoreError.invalidCoordinate("(no origin given for --sort distance)") }
        // The protocol admits only the eight codes; a state nothing can be in matches nothing.
        let state = query.state.map { AustralianState(parsing: $0) }
        if case .some(nil) = state { return ([], false) }
        let all: [PlaceSummary] = try database.read { db in
            var clauses: [String] = []
            var args: [any DatabaseValueConvertible] = [user, user, user]
            if let text = query.text, !text.isEmpty {
                clauses.append(#"p.search_text LIKE ? ESCAPE '\'"#)
                args.append(SearchText.likePattern(text))
            }
            if let state = state ?? nil {
                clauses.append("b.state = ?")
                args.append(state.rawValue)
            }
            if let kinds = query.kinds.map(Set.init) {
                if kinds.isEmpty { return [] }
                clauses.append("p.kind IN (\(Array(repeating: "?", count: kinds.count).joined(separator: ",")))")
                args += kinds.sorted()
            }
            if !query.includeInactive { clauses.append("p.active") }
            let whereSQL = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.*, b.state AS b_state, b.town AS b_town, b.rating AS b_rating, b.votes AS b_votes,
                       r.stars AS my_stars,
                       EXISTS (SELECT 1 FROM favourite f WHERE f.place_id = p.id AND f.user = ?) AS is_fav,
                       EXISTS (SELECT 1 FROM visit v WHERE v.place_id = p.id AND v.user = ?) AS is_seen
                FROM place p
                LEFT JOIN big_thing b ON b.place_id = p.id
                LEFT JOIN rating r ON r.place_id = p.id AND r.user = ?
                \(whereSQL)
                """, arguments: StatementArguments(args))
            let out = try rows.map { row in
                let place = try Place(row: row)
                return PlaceSummary(
                    place: place,
                    state: (row["b_state"] as String?).flatMap(AustralianState.init(rawValue:)),
                    town: row["b_town"], catalogueRating: row["b_rating"], catalogueVotes: row["b_votes"],
                    myRating: row["my_stars"],
                    favourite: row["is_fav"], seen: row["is_seen"],
                    distance: query.origin.map { $0.distance(to: place.coordinate) })
            }
            return PlaceOrder.sorted(out, by: sort)
        }
        let from = min(max(0, query.offset), all.count)
        let to = min(all.count, from + max(0, query.limit))
        return (Array(all[from..<to]), to < all.count)
    }

    /// Why each of the places `ids` that is gone is gone — `withdrawn` (from the catalogue), the
    /// catalogue's own word (`demolished`, `removed`), `archived` or `disabled` (a cache) — by
    /// id; a place that is not gone (or not stored) is not in it. Roaming leaves gone places
    /// out; wherever one still appears (near, a hunt asked for by id) it carries this.
    public func goneReasons<IDs: Collection<String>>(ids: IDs) throws -> [String: String] {
        let all = Array(Set(ids))
        return try database.read { db in
            var out: [String: String] = [:]
            // SQLite's bound on variables is far above this; a chunk keeps any list within it.
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = all[start..<min(all.count, start + 500)]
                let rows = try Row.fetchAll(db, sql: """
                    SELECT p.id, b.withdrawn, b.status, g.archived, g.available FROM place p
                    LEFT JOIN big_thing b ON b.place_id = p.id
                    LEFT JOIN geocache g ON g.place_id = p.id
                    WHERE NOT p.active AND p.id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))
                    """, arguments: StatementArguments(Array(chunk)))
                for r in rows { out[r["id"]] = Self.goneReason(r) }
            }
            return out
        }
    }

    static func goneReason(_ r: Row) -> String {
        if r["withdrawn"] as Bool? == true { return "withdrawn" }
        if let s = (r["status"] as String?)?.trimmingCharacters(in: .whitespaces).lowercased(), !s.isEmpty { return s }
        if r["archived"] as Bool? == true { return "archived" }
        if r["available"] as Bool? == false { return "disabled" }
        return "gone"
    }

    /// The `k` nearest places matching `filter` (its radius, if any, also applies), nearest first.
    public func nearest(to point: Coordinate, k: Int, filter: TargetFilter = TargetFilter()) throws -> [Neighbour] {
        let index = try spatialIndex(filter: filter)
        return index.nearest(to: point, k: k)
    }
}
