import ArgumentParser
import HotColdStore

struct UnfavCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfav",
        abstract: "Remove a place from your favourites.",
        discussion: "Example: hotcold unfav halans:d0577fb8cf")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String

    func run() throws {
        let backend = try options.backend()
        let id = try backend.placeID(resolving: id)
        try backend.setFavourite(placeID: id, false)
        try Output.result(json: options.json, Output.Change(id: id, favourite: false), text: "No longer a favourite: \(id).")
    }
}
