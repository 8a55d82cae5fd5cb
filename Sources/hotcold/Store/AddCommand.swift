import ArgumentParser
import HotColdCore
import HotColdStore

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a custom location (you can rename it later).",
        discussion: "Example: hotcold add \"Camp site\" --at -33.8568,151.2153")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The location's name.") var name: String
    @Option(parsing: .unconditional, help: "Where it is, as LAT,LON.") var at: Coordinate

    func run() throws {
        let p = try options.backend().addLocation(name: name, at: at)
        print("Added \(p.name) as \(p.id).")
    }
}
