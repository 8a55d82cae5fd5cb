import ArgumentParser
import HotColdStore

struct VisitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "Your visits, newest first (automatic ones from arrivals, manual ones from 'seen').",
        discussion: "Example: hotcold visits --json")

    @OptionGroup var options: StoreOptions

    func run() throws {
        let list = try options.backend().visits()
        if options.json { return try Output.json(list) }
        if list.isEmpty { return Output.note("No visits yet.") }
        Output.table(list.map { v in
            [Output.mediumDate(v.visit.visitedAt), v.visit.method, v.place.id, v.place.name]
        })
    }
}
