import Foundation
import GRDB
import HotColdCore
import HotColdFormats

extension Store {
    /// Records an automatic visit for an arrival episode, exactly once.
    ///
    /// The unique key (user, place, episode) makes a replayed or retried arrival store nothing
    /// new; the insert and the read-back happen in one transaction, so a crash leaves either
    /// the visit or nothing. Throws ``StoreError/noSuchPlace(_:)`` for an unknown place.
    ///
    /// ```swift
    /// let r = try store.recordArrival(placeID: "GC2T9RW", user: "alice", at: fix.time, episode: "GC2T9RW#3")
    /// r.isNew   // false when the same episode was recorded before
    /// ```
    @discardableResult
    public func recordArrival(placeID: String, user: String, at time: Date, episode: String) throws -> RecordedArrival {
        try write { db in try Store.recordArrival(db, placeID: placeID, user: user, at: time, episode: episode) }
    }

    /// The same, inside a caller's transaction (for a daemon that writes more in the same commit).
    public static func recordArrival(_ db: Database, placeID: String, user: String, at time: Date,
                                     episode: String) throws -> RecordedArrival {
        try requirePlace(db, placeID)
        var visit = Visit(placeId: placeID, user: user, visitedAt: time, method: .automatic, episode: episode)
        try visit.insert(db, onConflict: .ignore)
        if db.changesCount > 0 {
            visit.id = db.lastInsertedRowID
            return RecordedArrival(visit: visit, isNew: true)
        }
        // Ignored: the episode is already stored; return that row.
        guard let existing = try Visit
            .filter(Column("user") == user && Column("place_id") == placeID && Column("episode") == episode)
            .fetchOne(db)
        else { throw StoreError.noSuchPlace(placeID) }
        visit = existing
        return RecordedArrival(visit: visit, isNew: false)
    }

    /// Records a manual visit (`hotcold seen ID`).
    @discardableResult
    public func markSeen(placeID: String, user: String, at time: Date = Date(), photoPath: String? = nil) throws -> Visit {
        let placeID = try resolvePlaceID(placeID)
        return try write { db in
            try Store.requirePlace(db, placeID)
            try Store.requireRoom(db, quota: "manual_visits_per_user", limit: quotas.manualVisitsPerUser,
                                  user: user, sql: Quota.manualVisits)
            let v = Visit(placeId: placeID, user: user, visitedAt: time, method: .manual, photoPath: photoPath)
            return try v.inserted(db)
        }
    }

    /// Forgets every visit of this user to the place (seen is derived from visits). Returns how many.
    @discardableResult
    public func markUnseen(placeID: String, user: String) throws -> Int {
        let placeID = try resolvePlaceID(placeID)
        return try write { db in
            try Store.requirePlace(db, placeID)
            return try Visit.filter(Column("place_id") == placeID && Column("user") == user).deleteAll(db)
        }
    }

    public func setFavourite(placeID: String, user: String, _ favourite: Bool, at time: Date = Date()) throws {
        let placeID = try resolvePlaceID(placeID)
        return try write { db in
            try Store.requirePlace(db, placeID)
            if favourite {
                try Store.requireNotStage(db, placeID)
                try Favourite(user: user, placeId: placeID, createdAt: time).insert(db, onConflict: .ignore)
            } else {
                _ = try Favourite.filter(Column("place_id") == placeID && Column("user") == user).deleteAll(db)
            }
        }
    }

    /// Sets the user's 0–5 star rating (replacing an earlier one). A rating of a Big Thing is
    /// also queued for the web API (`share`), in the same transaction: both or neither.
    @discardableResult
    public func rate(placeID: String, user: String, stars: Int, at time: Date = Date(), share: Bool = true) throws -> Rating {
        let placeID = try resolvePlaceID(placeID)
        let rating = try Rating(user: user, placeId: placeID, stars: stars, ratedAt: time)
        try write { db in
            try Store.requirePlace(db, placeID)
            try Store.requireNotStage(db, placeID)
            try rating.upsert(db)
            if share { try Store.enqueueRating(db, rating) }
        }
        return rating
    }

    /// Sets (or with empty text, removes) the user's note on a place; at most 500 characters.
    @discardableResult
    public func setNote(placeID: String, user: String, text: String, at time: Date = Date()) throws -> Note? {
        let placeID = try resolvePlaceID(placeID)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return try write { db in
            try Store.requirePlace(db, placeID)
            if trimmed.isEmpty {
                _ = try Note.filter(Column("place_id") == placeID && Column("user") == user).deleteAll(db)
                return nil
            }
            try Store.requireNotStage(db, placeID)
            let note = try Note(user: user, placeId: placeID, text: trimmed, updatedAt: time)
            if try !note.exists(db) {
                try Store.requireRoom(db, quota: "notes_per_user", limit: quotas.notesPerUser,
                                      user: user, sql: Quota.notes)
            }
            try note.upsert(db)
            return note
        }
    }

    /// One user's visits, favourite, rating and note for a place.
    public func userState(placeID: String, user: String) throws -> UserPlaceState {
        let placeID = try resolvePlaceID(placeID)
        return try database.read { db in
            let mine = Column("place_id") == placeID && Column("user") == user
            return UserPlaceState(
                user: user, placeId: placeID,
                visits: try Visit.filter(mine).order(Column("visited_at")).fetchAll(db),
                favourite: try Favourite.filter(mine).fetchCount(db) > 0,
                rating: try Rating.filter(mine).fetchOne(db),
                note: try Note.filter(mine).fetchOne(db))
        }
    }

    /// The user's visits, newest first, each with its place.
    public func visits(user: String) throws -> [VisitRecord] {
        try database.read { db in
            let visits = try Visit.filter(Column("user") == user)
                .order(Column("visited_at").desc, Column("id").desc).fetchAll(db)
            let places = try Place.fetchAll(db, keys: Set(visits.map(\.placeId)))
            let byID = Dictionary(uniqueKeysWithValues: places.map { ($0.id, $0) })
            return visits.compactMap { v in byID[v.placeId].map { VisitRecord(visit: v, place: $0) } }
        }
    }

    /// Adds a custom location that this user (and only this user) may rename. Its id is
    /// `location:custom-` and 8 hex digits. At most ``StoreQuotas/locationsPerUser`` per user.
    public func addLocation(name: String, at coordinate: Coordinate, user: String, time: Date = Date()) throws -> Place {
        guard coordinate.isValid else { throw StoreError.invalidCoordinate(coordinate.description) }
        return try write { db in
            try Store.requireRoom(db, quota: "locations_per_user", limit: quotas.locationsPerUser,
                                  user: user, sql: Quota.locations)
            let place = Place(id: try Store.newCustomLocationID(db), kind: .location,
                              name: name, latitude: coordinate.latitude, longitude: coordinate.longitude)
            try place.insert(db)
            try LocationDetails(placeId: place.id, origin: .custom, createdBy: user, createdAt: time).insert(db)
            return place
        }
    }

    /// Renames a custom location on behalf of `user`, who must be the user who added it
    /// (``StoreError/notOwner(id:owner:user:)`` otherwise). Feed locations and every other
    /// kind keep their names.
    @discardableResult
    public func renameLocation(placeID: String, to name: String, by user: String) throws -> Place {
        let placeID = try resolvePlaceID(placeID)
        return try write { db in
            guard var place = try Place.fetchOne(db, key: placeID) else { throw StoreError.noSuchPlace(placeID) }
            guard place.kind == .location, let loc = try LocationDetails.fetchOne(db, key: placeID) else {
                throw StoreError.notALocation(id: placeID, kind: place.kind.rawValue)
            }
            guard loc.isNameEditable else { throw StoreError.readOnlyName(id: placeID, name: place.name) }
            guard loc.createdBy == user else { throw StoreError.notOwner(id: placeID, owner: loc.createdBy, user: user) }
            place.name = name
            place.searchText = SearchText.fold(name)
            try place.update(db)
            return place
        }
    }

    /// Deletes a custom location on behalf of `user`, who must be the user who added it,
    /// with that user's own visits, favourite, rating and note of it, in one transaction.
    /// Another user's history is never deleted: a location others have used stays
    /// (``StoreError/placeInUse(id:otherUsers:)``).
    @discardableResult
    public func deleteLocation(placeID: String, by user: String) throws -> Place {
        let placeID = try resolvePlaceID(placeID)
        return try write { db in
            guard let place = try Place.fetchOne(db, key: placeID) else { throw StoreError.noSuchPlace(placeID) }
            guard place.kind == .location, let loc = try LocationDetails.fetchOne(db, key: placeID) else {
                throw StoreError.notALocation(id: placeID, kind: place.kind.rawValue)
            }
            guard loc.isNameEditable else { throw StoreError.readOnlyName(id: placeID, name: place.name) }
            guard loc.createdBy == user else { throw StoreError.notOwner(id: placeID, owner: loc.createdBy, user: user) }
            let others = try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT user) FROM (
                    SELECT user FROM visit WHERE place_id = ?1 UNION ALL SELECT user FROM favourite WHERE place_id = ?1
                    UNION ALL SELECT user FROM rating WHERE place_id = ?1 UNION ALL SELECT user FROM note WHERE place_id = ?1)
                WHERE user <> ?2
                """, arguments: [placeID, user]) ?? 0
            guard others == 0 else { throw StoreError.placeInUse(id: placeID, otherUsers: others) }
            for table in ["visit", "favourite", "rating", "note"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE place_id = ?", arguments: [placeID])
            }
            try db.execute(sql: "DELETE FROM place WHERE id = ?", arguments: [placeID])   // its location row cascades
            return place
        }
    }

    /// Stores a submission of a new Big Thing and queues it for the web API's outbox in the
    /// same transaction. The photo's bytes go into the queued request now. At most
    /// ``StoreQuotas/pendingSubmissionsPerUser`` of a user's submissions wait in the outbox.
    @discardableResult
    public func submit(_ submission: Submission, photo: SubmissionPhoto? = nil) throws -> Submission {
        try write { db in
            try Store.requireRoom(db, quota: "pending_submissions_per_user", limit: quotas.pendingSubmissionsPerUser,
                                  user: submission.user, sql: Quota.pendingSubmissions)
            let s = try submission.inserted(db)
            try Store.enqueueSubmission(db, s, photo: photo)
            return s
        }
    }

    static func requirePlace(_ db: Database, _ id: String) throws {
        guard try Place.exists(db, key: id) else { throw StoreError.noSuchPlace(id) }
    }

    /// Refuses a rating, favourite or note of a cache's waypoint: it is one of the cache's
    /// stages, not a place of its own (one kept from before may still be removed).
    static func requireNotStage(_ db: Database, _ id: String) throws {
        if let cache = try String.fetchOne(db, sql: "SELECT parent_id FROM waypoint WHERE place_id = ?", arguments: [id]) {
            throw StoreError.stageOfCache(id: id, cache: cache)
        }
    }
}
