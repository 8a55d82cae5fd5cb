import ArgumentParser
import HotColdStore

struct FavCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fav",
        abstract: "Mark a place as a favourite (roam can be limited to favourites).",
        discussion: "Example: hotcold fav halans:d0577fb8cf")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String

    func run() throws {
        let backend = try options.backend()
        let id = try backend.placeID(resolving: id)
        try backend.setFavourite(placeID: id, true)
        try Output.result(json: options.json, Output.Change(id: id, favourite: true), text: "Favourite: \(id).")
    }
}
