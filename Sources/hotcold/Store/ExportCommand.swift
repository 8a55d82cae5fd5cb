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
    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func validate() throws {
        if options.json { throw ValidationError("--json does not apply: export writes --format gpx or geojson") }
    }

    func run() throws {
        let data = try options.backend().export(format: format, visits: visits)
        if let output {
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CLIError("cannot write \(output): \(Self.whyNotWritable(output))", code: .cannotCreate)
            }
            Output.note("Wrote \(output) (\(data.count) bytes).")
        } else if format == .geojson {
            // Still GeoJSON, with what a terminal would act on as JSON's escapes.
            FileHandle.standardOutput.write(Data(Shown.json(String(decoding: data, as: UTF8.self)).utf8))
        } else if isatty(STDOUT_FILENO) == 1 {
            // GPX on a screen is for reading; into a pipe or a file it goes as made.
            FileHandle.standardOutput.write(Data(Shown.text(String(decoding: data, as: UTF8.self)).utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }

    /// Our words for a failed write (Foundation's say only "could not be completed").
    static func whyNotWritable(_ path: String) -> String {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) { return "no folder \(dir)" }
        if !isDirectory.boolValue { return "\(dir) is not a folder" }
        if access(dir, W_OK) != 0 { return "the folder \(dir) is not writable by this user" }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a folder"
        }
        return "the write failed (is the disk full?)"
    }
}
