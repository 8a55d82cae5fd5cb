import ArgumentParser
import HotColdStore

struct RenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename one of your custom locations (default locations are read-only).",
        discussion: "Example: hotcold rename 1b2c \"Base camp\" (an unambiguous start of the id location:custom-1b2c3d4e)")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The location id.") var id: String
    @Argument(help: "The new name.") var name: String

    func run() throws {
        let p = try options.backend().renameLocation(placeID: id, to: name)
        try Output.result(json: options.json, p, text: "Renamed \(p.id) to \(p.name).")
    }
}
