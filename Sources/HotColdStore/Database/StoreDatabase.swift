import Foundation
import GRDB
import HotColdFormats

/// Opens the store's SQLite file the way every process must: WAL (through `DatabasePool`),
/// a busy timeout so the CLI and the daemon can share the file, foreign keys on, migrated.
///
/// ```swift
/// let pool = try StoreDatabase.openPool(path: "/tmp/hotcold.sqlite")
/// ```
enum StoreDatabase {
    /// How long a writer waits for another process's write lock before failing.
    static let busyTimeout: TimeInterval = 5

    public static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        config.label = "hotcold.store"
        return config
    }

    /// Opens (creating the file and its folder when missing) and migrates to the current schema.
    static func openPool(path: String) throws -> DatabasePool {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: path, configuration: configuration())
        try StoreMigrations.migrator.migrate(pool)
        return pool
    }
}
