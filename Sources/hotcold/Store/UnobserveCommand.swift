import ArgumentParser
import HotColdProtocol
import HotColdStore

struct UnobserveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unobserve",
        abstract: "Delete one of your field observations.",
        discussion: """
            ID is the observation's id or an unambiguous start of it, as hotcold observations \
            shows. Only the user who recorded it may delete it.

            Example: hotcold unobserve obs:1b2c
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The observation's id, or an unambiguous start of it.") var id: String

    func run() throws {
        let backend = try options.backend()
        let full = try ObservationID.resolve(id, in: backend)
        let o = try backend.store(.unobserve(id: full), as: ObservationPayload.self)
        try Output.result(json: options.json, o, text: "Deleted \(ObservationID.short(o.id)) (\(o.classification): \(o.title)).")
    }
}
