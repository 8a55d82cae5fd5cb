import ArgumentParser
import Foundation
import HotColdStore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a file: Big Things (catalogue or web API JSON), GPX or Groundspeak LOC caches, locations, observations, GeoJSON.",
        discussion: """
            The format is recognised from the content. A file is imported whole or not at all, and
            importing it again changes nothing. Invalid rows are listed and skipped; with --strict
            any invalid row refuses the file.
            Example: hotcold import ~/Downloads/6004539_HomeZone.gpx
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The file to import.", completion: .file()) var file: String
    @Flag(help: "Refuse the whole file if any row is invalid.") var strict = false

    func run() throws {
        let r = try options.backend().importFile(at: URL(fileURLWithPath: file), strict: strict)
        if options.json { return try Output.json(r) }
        print("Imported \(file) (\(r.format)): \(r.inserted) new, \(r.updated) updated, "
              + "\(r.unchanged) unchanged, \(r.skipped.count) skipped.")
        for i in r.skipped { Output.note("skipped: \(i)") }
        for w in r.warnings { Output.note("warning: \(w)") }
    }
}
