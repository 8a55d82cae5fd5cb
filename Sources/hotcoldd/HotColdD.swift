import ArgumentParser
import Foundation
import HotColdProtocol
import HotColdConfig
import HotColdDaemon
import Logging

/// `hotcoldd`: the daemon. Thin: parses flags, loads the configuration, runs `Daemon`.
@main
struct HotColdD: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotcoldd",
        abstract: "Track Big Things and geocaches from gpsd and publish hot/cold events on a Unix socket.",
        discussion: """
            Reads positions from gpsd, keeps the distance, tier and trend of each target, and \
            writes events as JSON lines to the socket and the log. Flags override the file.

            Examples:
              hotcoldd --config /usr/local/etc/hotcold/hotcoldd.toml
              hotcoldd --gpsd 127.0.0.1:2947 --socket /tmp/hc.sock --log /tmp/hc.jsonl --target -30.2748,153.1338,"Big Banana"
              hotcoldd --roam 20km
            """,
        version: "hotcoldd \(ProtocolVersion.release) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))")

    @Option(help: "Configuration file (TOML). Default: built-in defaults.")
    var config: String?

    @Option(help: "gpsd to read, as HOST[:PORT] (default localhost:2947).")
    var gpsd: String?

    @Option(help: "Path of the Unix socket to serve.")
    var socket: String?

    @Option(help: "Path of the JSON-lines event log.")
    var log: String?

    @Option(help: "Path of the SQLite database.")
    var db: String?

    @Option(name: .customLong("target"), parsing: .unconditionalSingleValue, help: "Hunt this target: LAT,LON[,NAME] or a stored place id (repeatable).")
    var targets: [String] = []

    @Option(help: "Roam among stored places within this distance (e.g. 10km).")
    var roam: String?

    @Flag(help: "Log debug messages.")
    var verbose = false

    mutating func run() async throws {
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
        let logger = Logger(label: "hotcoldd")
        var overrides = DaemonOverrides()
        overrides.gpsd = gpsd
        overrides.socket = socket
        overrides.log = log
        overrides.database = db
        overrides.targets = targets
        overrides.roam = roam
        let configuration: Configuration
        do {
            configuration = try Daemon.loadConfiguration(path: config, overrides: overrides)
        } catch {
            FileHandle.standardError.write(Data("hotcoldd: \(error.description)\n".utf8))
            throw ExitCode(78)   // EX_CONFIG
        }
        do {
            try Daemon.ensureStateDirectory(configuration)
        } catch {
            FileHandle.standardError.write(Data("hotcoldd: \(error.description)\n".utf8))
            throw ExitCode(78)   // EX_CONFIG: where the configuration puts the state
        }
        do {
            try await Daemon(configuration: configuration, configPath: config, overrides: overrides, logger: logger).run()
        } catch {
            FileHandle.standardError.write(Data("hotcoldd: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

