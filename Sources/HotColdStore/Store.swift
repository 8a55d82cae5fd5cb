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

    /// Syncs commits before their callers return (see ``CommitSync``).
    let commits: CommitSync
    /// Friends' feed items dropped by the feed's caps (see `addFeedItem`).
    let feedDrops = FeedDropCounter()

    init(database: DatabasePool, quotas: StoreQuotas = StoreQuotas()) {
        self.database = database
        self.quotas = quotas
        self.commits = CommitSync(databasePath: database.path)
    }

    /// Every write of the store: one transaction, on the disk when this returns. What the
    /// daemon acknowledges (an `ok`, an ARRIVED that leaves after its visit is stored) is
    /// then kept through a power cut; commits made at the same moment share one sync.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        let result = try database.write(updates)
        try commits.afterCommit()
        return result
    }

    /// Syncs made for commits since the store was opened (each covers every commit before it).
    public var commitSyncs: Int { commits.syncCount }

    /// Frees SQLite's caches (the writer's pages; the readers are closed and reopen when next
    /// needed): after one-off work such as loading the catalogue.
    public func releaseMemory() { database.releaseMemory() }

    /// Opens (creating when needed) and migrates the database at `path`.
    public static func open(path: String, quotas: StoreQuotas = StoreQuotas()) throws -> Store {
        Store(database: try StoreDatabase.openPool(path: path), quotas: quotas)
    }
}
