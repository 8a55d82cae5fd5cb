import ArgumentParser
import HotColdStore

struct UnseenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unseen",
        abstract: "Forget your visits to a place, so it counts as not seen again.",
        discussion: "Seen is derived from visits, so this removes your visits (automatic ones too).\nExample: hotcold unseen halans:d0577fb8cf")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String

    func run() throws {
        let backend = try options.backend()
        let id = try backend.placeID(resolving: id)
        let n = try backend.markUnseen(placeID: id)
        try Output.result(json: options.json, Output.Change(id: id, visitsRemoved: n),
                          text: "Not seen: \(id) (\(n) visit\(n == 1 ? "" : "s") removed).")
    }
}
