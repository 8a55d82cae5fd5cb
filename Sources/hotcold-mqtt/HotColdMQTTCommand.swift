import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol
import HotColdConfig
import HotColdMQTT
#if canImport(Glibc)
import Glibc
#endif

/// `hotcold-mqtt`: the fleet bridge. Thin: reads the configuration, runs `Bridge` until SIGTERM.
@main
struct HotColdMQTTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotcold-mqtt",
        abstract: "Publish hotcoldd's events to an MQTT broker, at least once (hotcold or OwnTracks topics).",
        discussion: """
            Subscribes to the daemon's socket and publishes every event at QoS 1 in a persistent \
            session; stores the last sequence number the broker acknowledged and resumes after it.

            Examples:
              hotcold-mqtt --config /usr/local/etc/hotcold/hotcold-mqtt.toml
              hotcold-mqtt --config bridge.toml --socket /tmp/hc.sock --state-dir /tmp/bridge
            """,
        version: "hotcold-mqtt \(ProtocolVersion.release) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))")

    @Option(help: "Configuration file (TOML). Default: built-in defaults.")
    var config: String?

    @Option(help: "The daemon's Unix socket (overrides [daemon] socket).")
    var socket: String?

    @Option(help: "State directory for the acknowledged sequence number (overrides [bridge] state_directory).")
    var stateDir: String?

    mutating func run() throws {
        let file = config ?? "(defaults)"
        var settings: BridgeSettings
        do throws(ConfigError) {
            var c = try config.map { path throws(ConfigError) in try BridgeConfigLoader.load(path: path) } ?? BridgeConfiguration()
            if let socket { c.daemon.socket = socket }
            if let stateDir { c.bridge.stateDirectory = stateDir }
            settings = try BridgeSettings(config: c, file: file)
        } catch {
            Self.say("\(error)")
            throw ExitCode(78)    // EX_CONFIG, as hotcoldd
        }
        // Signals are taken by one thread with sigwait; blocked here first so that every thread
        // started later (libmosquitto's included) inherits the mask.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)

        let log: Bridge.Log = { line in Self.say(line) }
        let bridge: Bridge
        do {
            bridge = try Bridge(settings: settings, log: log)
        } catch {
            log("cannot start: \(error)")
            throw ExitCode(1)
        }
        let mask = set
        do {
            try BlockingThread.start(name: "hotcold-mqtt.signals") {
                var sig: Int32 = 0
                var s = mask
                sigwait(&s, &sig)
                log("signal \(sig): stopping")
                bridge.stop()
            }
        } catch {
            log("cannot start: \(error)")
            throw ExitCode(1)
        }
        do {
            try bridge.run()
        } catch {
            log("\(error)")
            throw ExitCode(1)
        }
    }

    /// One line to the journal (stderr), in one write so that threads' lines never interleave.
    static func say(_ s: String) {
        let line = Array("hotcold-mqtt: \(s)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
