import Foundation
import GRDB
import HotColdCore
@_exported import HotColdFormats

/// The hotcold database: places (Big Things, geocaches, waypoints, locations), each user's
/// visits, favourites, ratings and notes, submissions and field observations.
///
/// One SQLite file in WAL mode, shared by the daemon (the writer while it runs) and the CLI
/// (offline, `--db`). Every write is one transaction.
///
/// ```swift
/// let store = try Store.open(path: "/var/lib/hotcold/hotcold.sqlite")
/// try store.loadBundledCatalogueIfEmpty()
/// let roam = try store.targets(filter: TargetFilter(kinds: [.bigThing], unseenBy: "alice"))
/// let arrival = try store.recordArrival(placeID: "GC2T9RW", user: "alice", at: .now, episode: "e-17")
/// ```
public final class Store: Sendable {
    /// The connection pool: the store's alone. Everything outside asks the store's methods,
    /// so every write keeps the store's rules (quotas, ownership, the outbox in the same
    /// transaction); tests reach it with `@testable import`.
    let database: DatabasePool
    public var path: String { database.path }
    /// What one user may store (checked in the transaction of each write that grows storage).
    public let quotas: StoreQuotas

    init(database: DatabasePool, quotas: StoreQuotas = StoreQuotas()) {
        self.database = database
        self.quotas = quotas
    }

    /// Opens (creating when needed) and migrates the database at `path`.
    public static func open(path: String, quotas: StoreQuotas = StoreQuotas()) throws -> Store {
        Store(database: try StoreDatabase.openPool(path: path), quotas: quotas)
    }
}
