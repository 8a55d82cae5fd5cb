import ArgumentParser
import HotColdStore

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one of your custom locations, with your visits, notes and stars on it.",
        discussion: """
            Only the user who added a location may delete it, and not while another user has \
            visits, favourites, ratings or notes on it. Default locations and catalogue places \
            cannot be deleted.

            Example: hotcold delete location:custom-1b2c…
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The location id.") var id: String

    func run() throws {
        let p = try options.backend().deleteLocation(placeID: id)
        print("Deleted \(p.id) (\(p.name)).")
    }
}
