import ArgumentParser
import Foundation
import GPSInput
import HotColdConfig
import HotColdCore
import HotColdProtocol

/// `hotcold replay`: runs a recorded track through the engine and prints the events.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded track (NMEA, gpsd JSON or GPX) against targets and print the events.",
        discussion: """
            The format is detected from the file's content. Events go to stdout, one JSON object \
            per line (or readable text with --format text); warnings such as skipped lines go to \
            stderr. The same input always gives byte-identical output.

            Examples:
              hotcold replay drive.nmea --target -30.2767,153.1353,"Big Banana"
              hotcold replay walk.gpx --targets caches.json --format text
              hotcold replay trip.jsonl --targets bigthings.json --roam 10km
            """)

    @Argument(help: "The track file: NMEA 0183 log, gpsd JSON (gpspipe -w) or GPX.", completion: .file())
    var track: String

    // Unconditional: southern latitudes start with "-" and must not read as an option.
    @Option(name: .customLong("target"), parsing: .unconditionalSingleValue,
            help: "A target as LAT,LON[,NAME] (repeatable).")
    var targets: [String] = []

    @Option(name: .customLong("targets"), help: "A JSON array of {\"id\",\"name\",\"lat\",\"lon\",\"kind\"?}.", completion: .file())
    var targetsFile: String?

    @Option(parsing: .unconditional, help: "Roam: track only targets within this distance (e.g. 10km). Default: hunt every target.")
    var roam: String?

    @Option(help: "Configuration file whose [engine] and [tiers] sections tune the engine.", completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(help: "Output format: json (default) or text.")
    var format: OutputFormat = .json

    enum OutputFormat: String, CaseIterable, ExpressibleByArgument { case json, text }

    func validate() throws {
        if targets.isEmpty && targetsFile == nil {
            throw ValidationError("give at least one --target LAT,LON[,NAME] or --targets FILE")
        }
        if let roam, DistanceParser.metres(roam).map({ $0 > 0 && $0 <= Configuration.Tracking.maxRoamRadius }) != true {
            throw ValidationError("--roam \(roam): expected a distance above 0 and at most 20000km, such as 10km or 850m")
        }
    }

    func run() throws {
        var engineConfig = EngineConfig()
        if let config { engineConfig = try ConfigLoader.load(path: config).engine }

        var all: [Target] = []
        for (i, text) in targets.enumerated() {
            do {
                guard let t = try Target(point: text, index: i + 1) else {
                    throw CLIError("--target \(text): expected LAT,LON[,NAME] in decimal degrees", code: .usage)
                }
                all.append(t)
            } catch let e as PointTargetError {
                throw CLIError("--target \(e)", code: .usage)
            }
        }
        if let targetsFile { all += try TargetsFile.load(targetsFile) }

        let mode: TrackingMode = roam.flatMap(DistanceParser.metres).map { .roam(radius: $0) } ?? .hunt
        // A web page saved as .gpx is named as one, before the track reader calls it "not GPX".
        if ImportableFile.isHTML(ImportableFile.head(of: track)) {
            throw CLIError("\(track): this is an HTML page (a web page saved from a browser?), not a GPS track; download the file itself")
        }
        let reader = try TrackReader(path: track)
        var engine = ProximityEngine(targets: all, mode: mode, config: engineConfig)
        let out = OutputBuffer()
        var events: [Event] = []
        let progress = ProgressLine("replay \(URL(fileURLWithPath: track).lastPathComponent)", unlessOutputIsTerminal: true)
        defer { progress.finish() }
        var fixes = 0
        while let fix = try reader.next() {
            fixes += 1
            progress.update(done: reader.bytesRead, of: reader.fileSize, count: fixes, counting: "fixes")
            events.removeAll(keepingCapacity: true)
            engine.process(fix, into: &events)
            for e in events {
                if format == .json { out.json(EventMessage(e).line) } else { out.line(EventText.line(e)) }
            }
        }
        out.flush()
        progress.finish()
        if let summary = reader.stats.skipSummary { warn("hotcold replay: \(track): \(summary)") }
        if let stop = reader.stats.stoppedEarly { warn("hotcold replay: \(track): \(stop)") }
        let s = engine.stats
        if s.outOfOrder + s.outliers > 0 {
            warn("hotcold replay: dropped \(s.outOfOrder) out-of-order or duplicate fixes and \(s.outliers) outliers")
        }
    }
}
