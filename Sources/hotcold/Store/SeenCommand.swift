import ArgumentParser
import HotColdStore

struct SeenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seen",
        abstract: "Record that you have seen (found) a place: a manual visit, now.",
        discussion: "Example: hotcold seen halans:d0577fb8cf")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id.") var id: String

    func run() throws {
        let backend = try options.backend()
        let v = try backend.markSeen(placeID: id)
        try Output.result(json: options.json, v, text: "Seen: \(id) at \(Output.mediumDate(v.visitedAt)).")
    }
}
