import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Options every store command shares: where the database is, and JSON output for lists.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Work on this database file directly, offline, not through hotcoldd. Without it every command goes through a running hotcoldd (--socket) and fails with status 69 when none answers: a change is never written where the daemon would not see it.",
        valueName: "PATH"), completion: .file())
    var db: String?

    @Flag(name: .long, help: "Print the result as JSON instead of text.")
    var json = false

    @OptionGroup var connection: ConnectionOptions

    /// The database file when `--db` names one, else the daemon, whose absence is the answer
    /// (status 69, with the socket tried and the ways out): guessing a file would store changes
    /// the daemon never reads and show lists it does not hold.
    func backend() throws -> any StoreBackend {
        if db != nil { return try directBackend() }
        return try DaemonStoreBackend(connection: connection.connect(offline: true))
    }

    /// Opens the `--db` file (creating it, with the bundled catalogue, on first use).
    func openStore() throws -> Store {
        guard let databasePath = db else { throw CLIError("needs --db PATH", code: .usage) }
        let store: Store
        do {
            store = try Store.open(path: databasePath)
        } catch {
            // SQLite's own word for it when it has one; otherwise the folder could not be made.
            let status = ExitStatus(for: error)
            let reason = DatabaseFailure(error)?.message ?? "its folder cannot be created"
            throw CLIError("cannot open the database \(databasePath): \(reason)",
                           code: status == .software ? .cannotCreate : status)
        }
        return store
    }

    private func directBackend() throws -> any StoreBackend {
        // A mistyped path makes a new, empty database: say so, so nobody works on it unawares.
        let existed = db.map { FileManager.default.fileExists(atPath: $0) } ?? true
        let store = try openStore()
        do {
            if let r = try store.loadBundledCatalogueIfEmpty() {
                Output.note("Loaded the bundled catalogue: \(r.inserted) Big Things into \(db ?? "").")
            }
            if !existed {
                Output.note("note: there was no database at \(db ?? ""), so this is a new one; if you meant an existing file, check the path.")
            }
        } catch let e as StoreError {
            Output.note("warning: \(e)")
        }
        return InProcessStoreBackend(store: store, user: CurrentUser.name)
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
