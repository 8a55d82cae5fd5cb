import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Options every store command shares: where the database is, and JSON output for lists.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file. Default: $HOTCOLD_DB, else $XDG_DATA_HOME/hotcold/hotcold.sqlite, else ~/.local/share/hotcold/hotcold.sqlite.",
        valueName: "PATH"))
    var db: String?

    @Flag(name: .long, help: "Print lists as JSON (one array) instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "A running hotcoldd's socket (default $HOTCOLD_SOCKET or /run/hotcold/hotcold.sock). When it answers and --db is not given, changes go through the daemon.",
        valueName: "PATH"))
    var socket: String?

    static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let p = environment["HOTCOLD_DB"], !p.isEmpty { return p }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/hotcold/hotcold.sqlite" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/hotcold/hotcold.sqlite"
    }

    var databasePath: String { db ?? StoreOptions.defaultDatabasePath() }

    /// The daemon when one runs (and no `--db` was given), else the database file directly,
    /// loading the bundled catalogue on first use.
    func backend() throws -> any StoreBackend {
        if db == nil {
            let path = LineClient.defaultPath(socket)
            if socket != nil || FileManager.default.fileExists(atPath: path) {
                do {
                    return try DaemonStoreBackend(connection: try DaemonLink.connect(socket: path))
                } catch let e as CLIError where socket == nil && e.code == 69 {
                    // A stale default socket: fall back to the file.
                }
            }
        }
        let store = try Store.open(path: databasePath)
        do {
            if let r = try store.loadBundledCatalogueIfEmpty() {
                Output.note("Loaded the bundled catalogue: \(r.inserted) Big Things into \(databasePath).")
            }
        } catch let e as StoreError {
            Output.note("warning: \(e)")
        }
        return DirectStoreBackend(store: store, user: CurrentUser.name)
    }
}

extension Coordinate: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    // Shown in --help for an option whose default is a coordinate.
    public var defaultValueDescription: String { "\(latitude),\(longitude)" }
}

extension TargetKind: ExpressibleByArgument {
    public init?(argument: String) {
        let k = TargetKind(rawValue: argument.lowercased())
        guard [.bigThing, .geocache, .waypoint, .location].contains(k) else { return nil }
        self = k
    }
    public static var allValueStrings: [String] { ["bigthing", "geocache", "waypoint", "location"] }
}

extension PlaceSort: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
extension ObservationClassification: ExpressibleByArgument {}
extension AustralianState: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
