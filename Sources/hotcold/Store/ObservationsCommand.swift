import ArgumentParser
import HotColdStore

struct ObservationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observations",
        abstract: "List field observations, oldest first, each with its id (for amend and unobserve).",
        discussion: "Example: hotcold observations --json")

    @OptionGroup var options: StoreOptions

    func run() throws {
        let list = try options.backend().observations()
        if options.json { return try Output.json(list) }
        if list.isEmpty { return Output.note("No observations yet.") }
        Output.table(list.map { o in
            [ObservationID.short(o.id), Output.mediumDate(o.observedAt), o.classification,
             o.title + (o.description.map { " — \($0)" } ?? "")]
        })
    }
}
