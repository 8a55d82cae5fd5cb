import ArgumentParser
import Foundation
import GRDB
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Options every store command shares: where the database is, and JSON output for lists.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Work on this database file directly, not through hotcoldd. Without it, a running hotcoldd (--socket) serves every command; when none runs: $HOTCOLD_DB, else $XDG_DATA_HOME/hotcold/hotcold.sqlite, else ~/.local/share/hotcold/hotcold.sqlite.",
        valueName: "PATH"))
    var db: String?

    @Flag(name: .long, help: "Print lists as JSON (one array) instead of text.")
    var json = false

    @OptionGroup var connection: ConnectionOptions

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
            let socket = connection.socket
            let path = connection.path
            if socket != nil || FileManager.default.fileExists(atPath: path) {
                let connection: LineClient
                do {
                    connection = try LineClient(path: path)
                } catch .cannotConnect(_, let reason) where socket == nil && reason == Self.staleSocket {
                    // A socket file with no daemon behind it (left by a crash): use the file.
                    return try directBackend()
                } catch {
                    // Anything else (permission denied above all) is the answer: on an installed
                    // system the database is the daemon's, and guessing a file would hide why.
                    throw DaemonLink.cliError(error)
                }
                return try DaemonStoreBackend(connection: connection)
            }
        }
        return try directBackend()
    }

    /// strerror(ECONNREFUSED): the socket file exists but nothing listens on it.
    static let staleSocket = String(cString: strerror(ECONNREFUSED))

    private func directBackend() throws -> any StoreBackend {
        let store: Store
        do {
            store = try Store.open(path: databasePath)
        } catch {
            // SQLite's own word for it when it has one; otherwise the folder could not be made.
            let status = ExitStatus(for: error)
            let reason = (error as? DatabaseError).map { $0.message ?? "\($0.resultCode)" } ?? "its folder cannot be created"
            throw CLIError("cannot open the database \(databasePath): \(reason)",
                           code: status == .software ? .cannotCreate : status)
        }
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
