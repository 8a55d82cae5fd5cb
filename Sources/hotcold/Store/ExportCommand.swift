import ArgumentParser
import Foundation
import HotColdStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export places (or your visits) as GPX or GeoJSON, to share a trip.",
        discussion: "Example: hotcold export --format gpx --visits --output trip.gpx")

    @OptionGroup var options: StoreOptions
    @Option(help: "gpx or geojson.") var format: ExportFormat
    @Flag(help: "Export your visits instead of the places.") var visits = false
    @Option(help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        let data = try options.backend().export(format: format, visits: visits)
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            Output.note("Wrote \(output) (\(data.count) bytes).")
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
