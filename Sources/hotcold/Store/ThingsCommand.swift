import ArgumentParser
import HotColdCore
import HotColdProtocol
import HotColdStore

struct ThingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "things",
        abstract: "List Big Things: search by name, filter by state, sort by name, rating or distance.",
        discussion: """
            Search ignores case and accents and matches the name or the town. Columns: id, state,
            distance (from --at, else the daemon's last fix), seen ✓ and favourite ♥, the catalogue's average rating with its
            vote count, your own stars, name — town.
            With --search and no --kind, every kind is searched, so a geocache is found by its code
            or name as a Big Thing is (hotcold things --search GC2T9RW); without --search, Big Things
            are listed unless --kind says otherwise.
            Example: hotcold things --search banana --state NSW --sort distance --at -30.30,153.11
            """)

    @OptionGroup var options: StoreOptions
    @Option(help: "Text to find in the name or town (or a geocache's code).") var search: String?
    @Option(help: "Only this kind: bigthing, geocache, waypoint or location. Default: bigthing, or every kind with --search.",
            completion: .list(TargetKind.allValueStrings))
    var kind: TargetKind?
    @Option(help: "Only this state or territory (ACT, NSW, NT, QLD, SA, TAS, VIC, WA).") var state: AustralianState?
    @Option(help: "Order: name (ties by town), rating (yours where you rated, else the catalogue's average; unrated last) or distance (from --at, else the daemon's last fix).") var sort: PlaceSort = .name
    @Option(parsing: .unconditional, help: "Where distances are measured from, as LAT,LON (default: the daemon's last fix).",
            transform: PlaceArguments.coordinate) var at: Coordinate?

    func run() throws {
        let backend = try options.backend()
        // Distances from the car, as `near` measures them, unless a point is given.
        var at = self.at
        if sort == .distance, at == nil {
            guard let here = try backend.currentPosition() else {
                throw CLIError("--sort distance needs a point: the daemon has no fix yet (or this is offline work on a file); give --at LAT,LON.",
                               code: .usage)
            }
            at = here
        }
        let kinds: Set<TargetKind>? = kind.map { [$0] } ?? (search == nil ? [.bigThing] : nil)
        let list = try backend.search(SearchRequest(text: search, state: state?.rawValue, kinds: kinds?.map(\.rawValue).sorted(),
                                                    sort: sort.rawValue, origin: at))
        if options.json { return try Output.json(list) }
        if list.isEmpty {
            return Output.note(kinds == [.bigThing] ? "No Big Things match." : "No places match\(search.map { " \"\($0)\"" } ?? "").")
        }
        Output.table(list.map { s in
            [s.place.id, s.state ?? "", s.distance.map(DistanceFormat.text) ?? "",
             (s.seen ? "✓" : " ") + (s.favourite ? "♥" : " "),
             Output.catalogueRating(s.catalogueRating, votes: s.catalogueVotes), Output.stars(s.myRating),
             s.place.name + (s.place.active ? "" : " (gone)") + (s.town.map { " — \($0)" } ?? "")]
        })
    }
}
