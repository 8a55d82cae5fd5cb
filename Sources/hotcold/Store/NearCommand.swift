import ArgumentParser
import HotColdCore
import HotColdStore

struct NearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "The places nearest to a point, with distance and direction.",
        discussion: """
            Offline (--db) the point is --at; with a running daemon it will default to the current fix.
            Example: hotcold near --at -33.8688,151.2093 --kind bigthing --limit 5
            """)

    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: "The point to measure from, as LAT,LON.", transform: PlaceArguments.coordinate) var at: Coordinate?
    @Option(help: "Only this kind: bigthing, geocache, waypoint or location.", completion: .list(TargetKind.allValueStrings))
    var kind: TargetKind?
    @Option(help: "How many places to list.") var limit = 10

    struct Row: Encodable {
        var id: String, name: String, kind: String, lat: Double, lon: Double
        var distanceM: Double, bearingDeg: Double
    }

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let backend = try options.backend()
        guard let origin = try at ?? backend.currentPosition() else {
            throw ValidationError("Give the point with --at LAT,LON (no daemon is running to say where you are).")
        }
        let found = try backend.nearest(to: origin, k: limit, kinds: kind.map { [$0] })
        let rows = found.map { n in
            Row(id: n.target.id, name: n.target.name, kind: n.target.kind.rawValue,
                lat: n.target.coordinate.latitude, lon: n.target.coordinate.longitude,
                distanceM: n.distance, bearingDeg: origin.bearing(to: n.target.coordinate))
        }
        if options.json { return try Output.json(rows) }
        if rows.isEmpty { return Output.note("No places in the store.") }
        Output.table(rows.map { [DistanceFormat.text($0.distanceM), DistanceFormat.compass($0.bearingDeg), $0.kind, $0.id, $0.name] })
    }
}
