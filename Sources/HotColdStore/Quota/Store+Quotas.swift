import GRDB
import HotColdFormats

/// Quota checks, run inside the writing transaction (see ``StoreQuotas``).
extension Store {
    /// Throws ``StoreError/quotaReached(quota:limit:user:)`` when `count` rows already reach
    /// `limit`, so that one more would go over.
    static func requireRoom(_ db: Database, quota: String, limit: Int, user: String, sql: String) throws {
        let used = try Int.fetchOne(db, sql: sql, arguments: [user]) ?? 0
        if used >= limit { throw StoreError.quotaReached(quota: quota, limit: limit, user: user) }
    }

    /// After a batch (an import) is written in `db`'s transaction: throws, rolling the whole
    /// batch back, when any user it touched now holds more than a quota allows.
    static func requireWithinQuotas(_ db: Database, _ quotas: StoreQuotas, users: Set<String>) throws {
        for user in users.sorted() {
            let observations = try Int.fetchOne(db, sql: Quota.observations, arguments: [user]) ?? 0
            if observations > quotas.observationsPerUser {
                throw StoreError.quotaReached(quota: "observations_per_user", limit: quotas.observationsPerUser, user: user)
            }
            let locations = try Int.fetchOne(db, sql: Quota.locations, arguments: [user]) ?? 0
            if locations > quotas.locationsPerUser {
                throw StoreError.quotaReached(quota: "locations_per_user", limit: quotas.locationsPerUser, user: user)
            }
        }
    }

    /// After an import is written: throws, rolling it back, when the places `user` has
    /// imported now pass `imported_places_per_user`.
    static func requireWithinImportQuota(_ db: Database, _ quotas: StoreQuotas, user: String) throws {
        let imported = try Int.fetchOne(db, sql: Quota.importedPlaces, arguments: [user]) ?? 0
        if imported > quotas.importedPlacesPerUser {
            throw StoreError.quotaReached(quota: "imported_places_per_user", limit: quotas.importedPlacesPerUser, user: user)
        }
    }

    /// The counting queries, one per quota (each served by an index on its user column).
    enum Quota {
        static let locations = "SELECT COUNT(*) FROM location WHERE created_by = ? AND origin = 'custom'"
        static let observations = "SELECT COUNT(*) FROM observation WHERE user = ?"
        static let pendingSubmissions = "SELECT COUNT(*) FROM outbox WHERE user = ? AND kind = 'submission' AND state = 'pending'"
        static let notes = "SELECT COUNT(*) FROM note WHERE user = ?"
        static let importedPlaces = "SELECT COUNT(*) FROM place_import WHERE user = ?"
        static let manualVisits = "SELECT COUNT(*) FROM visit WHERE user = ? AND method = 'manual'"
    }
}
