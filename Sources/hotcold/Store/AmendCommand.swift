import ArgumentParser
import HotColdProtocol
import HotColdStore

struct AmendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amend",
        abstract: "Correct one of your field observations: what it was, its kind, its notes.",
        discussion: """
            Only what is given changes; when and where it was seen stay as recorded. --notes "" \
            removes the notes. ID is the observation's id or an unambiguous start of it, as \
            hotcold observations shows (obs:1b2c3d4e). Only the user who recorded it may amend it.

            Example: hotcold amend obs:1b2c --title "Rainbow lorikeet" --notes "Two, in the bottlebrush"
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The observation's id, or an unambiguous start of it.") var id: String
    @Option(help: "What it was.") var title: String?
    @Option(help: "amphibian, bird, fish, insect, mammal, plant or reptile.") var kind: ObservationClassification?
    @Option(help: "More about it (\"\" removes the notes).") var notes: String?

    func validate() throws {
        if title == nil && kind == nil && notes == nil { throw ValidationError("nothing to change: give --title, --kind or --notes") }
        if let title, title.isEmpty { throw ValidationError("--title must not be empty") }
    }

    func run() throws {
        let backend = try options.backend()
        let full = try ObservationID.resolve(id, in: backend)
        let o = try backend.store(.amend(.init(id: full, classification: kind?.rawValue, title: title, description: notes)),
                                  as: ObservationPayload.self)
        try Output.result(json: options.json, o, text: "Amended \(ObservationID.short(o.id)): \(o.classification), \(o.title)"
                          + (o.description.map { " — \($0)" } ?? "") + ".")
    }
}
