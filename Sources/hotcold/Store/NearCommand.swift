import ArgumentParser
import HotColdCore
import HotColdProtocol
import HotColdStore

struct NearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "The places nearest to a point, with distance and direction.",
        discussion: """
            Offline (--db) the point is --at; with a running daemon it will default to the current fix.
            --kind friend lists the friends on hotcoldd's radar, measured from its fix.
            Examples:
              hotcold near --at -33.8688,151.2093 --kind bigthing --limit 5
              hotcold near --kind friend
            """)

    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: "The point to measure from, as LAT,LON.", transform: PlaceArguments.coordinate) var at: Coordinate?
    @Option(help: "Only this kind: bigthing, geocache, waypoint, location, or friend (the daemon's friend radar).",
            completion: .list(TargetKind.allValueStrings + ["friend"]), transform: NearCommand.kind)
    var kind: TargetKind?

    static func kind(_ s: String) throws -> TargetKind {
        if s.lowercased() == TargetKind.friend.rawValue { return .friend }
        guard let k = TargetKind(argument: s) else {
            throw ValidationError("unknown kind \"\(s)\" (known: \((TargetKind.allValueStrings + ["friend"]).joined(separator: ", ")))")
        }
        return k
    }
    @Option(help: "How many places to list.") var limit = 10

    struct Row: Encodable {
        var id: String, name: String, kind: String, lat: Double, lon: Double
        var distanceM: Double, bearingDeg: Double
        /// Why the place is gone (demolished, withdrawn, archived, …), when it is.
        var gone: String?

        init(_ n: NearbyPlace) {
            (id, name, kind, lat, lon) = (n.target.id, n.target.name, n.target.kind.rawValue, n.lat, n.lon)
            (distanceM, bearingDeg, gone) = (n.distanceM, n.bearingDeg, n.gone)
        }

        /// The name as listed: a place that is gone says so beside it.
        var shownName: String { gone.map { "\(name) (gone: \($0))" } ?? name }
    }

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        if kind == .friend { return try friends() }
        let backend = try options.backend()
        guard let origin = try at ?? backend.currentPosition() else {
            throw ValidationError("Give the point with --at LAT,LON (no daemon is running to say where you are).")
        }
        let found = try backend.nearest(to: origin, k: limit, kinds: kind.map { [$0] })
        let rows = found.map(Row.init)
        if options.json { return try Output.json(rows) }
        if rows.isEmpty { return Output.note("No places in the store.") }
        Output.table(rows.map { [DistanceFormat.text($0.distanceM), DistanceFormat.compass($0.bearingDeg), $0.kind, $0.id, $0.shownName] })
    }

    /// The friends on the daemon's radar, nearest first (they are nowhere in a database file).
    private func friends() throws {
        if options.db != nil { throw CLIError("--kind friend needs a running hotcoldd: friends are on its radar, not in a database file", code: .usage) }
        let c = try options.connection.connect()
        let found = try DaemonLink.run { () throws(ClientError) in
            try c.call(.near(NearRequest(kinds: ["friend"], limit: min(limit, Limits.resultRows))), result: .near, as: [NearbyPlace].self)
        }
        let rows = found.map(Row.init)
        if options.json { return try Output.json(rows) }
        if rows.isEmpty { return Output.note("No friends on the radar with a known distance (hotcold following says who you follow).") }
        Output.table(rows.map { [DistanceFormat.text($0.distanceM), DistanceFormat.compass($0.bearingDeg), $0.name, $0.id] })
    }
}
