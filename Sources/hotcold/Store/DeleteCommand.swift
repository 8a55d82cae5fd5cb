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

            Example: hotcold delete 1b2c (an unambiguous start of the id, here of location:custom-1b2c3d4e)
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The location id.") var id: String

    func run() throws {
        let backend = try options.backend()
        // Said here for every kind, through the daemon or a file alike: the store's own refusal
        // speaks of renaming.
        if let d = try backend.place(id: id) {
            if d.place.kind != .location {
                throw CLIError("\(d.place.name) (\(id)) is a \(KindWords.noun(d.place.kind)); only your own custom locations can be deleted")
            }
            if d.location?.origin == LocationOrigin.default.rawValue {
                throw CLIError("\(d.place.name) (\(id)) came with a locations feed and cannot be deleted; only your own custom locations can")
            }
        }
        let p = try backend.deleteLocation(placeID: id)
        try Output.result(json: options.json, p, text: "Deleted \(p.id) (\(p.name)).")
    }
}
