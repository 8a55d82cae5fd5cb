import ArgumentParser
import Foundation
import HotColdCore
import HotColdStore

struct ObserveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "Record a field observation: what you saw, when, and optionally where.",
        discussion: """
            CLASSIFICATION is one of amphibian, bird, fish, insect, mammal, plant, reptile.
            Example: hotcold observe bird "Sulphur-crested cockatoo" "Flock of twelve" --at -33.87,151.21 --date "2024-03-01 07:30"
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "amphibian, bird, fish, insect, mammal, plant or reptile.") var classification: ObservationClassification
    @Argument(help: "What it was.") var title: String
    @Argument(help: "More about it.") var description: String?
    @Option(parsing: .unconditional, help: "Where, as LAT,LON.", transform: PlaceArguments.coordinate) var at: Coordinate?
    @Option(help: "When: YYYY-MM-DD HH:MM (UTC) or ISO-8601; default now.") var date: String?
    @Flag(help: "Where: the running daemon's last fix.") var here = false

    func validate() throws {
        if at != nil && here { throw ValidationError("give --at LAT,LON or --here, not both") }
    }

    func run() throws {
        var when = Date()
        if let date {
            guard let d = ObservationsImporter.parseDate(date) else {
                throw ValidationError("--date \"\(date)\" is not a date; use YYYY-MM-DD HH:MM or ISO-8601.")
            }
            when = d
        }
        let backend = try options.backend()
        var point = at
        if here {
            guard let p = try backend.currentPosition() else {
                throw ValidationError("--here needs a running hotcoldd with a fix (or give --at LAT,LON)")
            }
            point = p
        }
        let o = try backend.addObservation(classification: classification, title: title,
                                           description: description, date: when, coordinate: point)
        try Output.result(json: options.json, o,
                          text: "Observed \(o.classification): \(o.title), \(Output.mediumDate(o.observedAt)).")
    }
}
