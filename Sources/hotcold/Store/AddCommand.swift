import ArgumentParser
import HotColdCore
import HotColdStore

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a custom location (you can rename it later).",
        discussion: """
            Examples:
              hotcold add "Camp site" --at -33.8568,151.2153
              hotcold add "Where the car is" --here      (the running daemon's last fix)
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The location's name.") var name: String
    @Option(parsing: .unconditional, help: "Where it is, as LAT,LON.", transform: PlaceArguments.coordinate) var at: Coordinate?
    @Flag(help: "Here: the running daemon's last fix.") var here = false

    func validate() throws {
        if (at == nil) == !here { throw ValidationError("give exactly one of --at LAT,LON or --here") }
    }

    func run() throws {
        let backend = try options.backend()
        guard let point = try at ?? backend.currentPosition() else {
            throw ValidationError("--here needs a running hotcoldd with a fix (or give --at LAT,LON)")
        }
        let p = try backend.addLocation(name: name, at: point)
        try Output.result(json: options.json, p, text: "Added \(p.name) as \(p.id).")
    }
}
