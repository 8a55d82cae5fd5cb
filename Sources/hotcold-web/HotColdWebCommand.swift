import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdConfig
import HotColdProtocol
import HotColdWeb
import Hummingbird
import Glibc

/// `hotcold-web`: the live page. Thin: reads the configuration, opens the paired-device store
/// and the control socket, serves until SIGTERM (Hummingbird's service group shuts down cleanly).
@main
struct HotColdWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotcold-web",
        abstract: "Serve the hunt as a live page for a phone or a car display (a client of hotcoldd's socket).",
        discussion: """
            Listens on 127.0.0.1 by default: from this machine the page is readable without \
            credentials; other devices pair with `hotcold web pair`.

            Examples:
              hotcold-web --config /usr/local/etc/hotcold/hotcold-web.toml
              hotcold-web --socket /tmp/hc.sock --listen 10.42.0.1 --port 8470 --state-dir /tmp/web
            """,
        version: "hotcold-web \(ProtocolVersion.release) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))")

    @Option(help: "Configuration file (TOML). Default: built-in defaults.")
    var config: String?

    @Option(help: "The daemon's Unix socket (overrides [daemon] socket).")
    var socket: String?

    @Option(help: "IP address to listen on (overrides [listen] address).")
    var listen: String?

    @Option(help: "TCP port (overrides [listen] port; 0 picks a free one).")
    var port: Int?

    @Option(help: "State directory for paired devices (overrides [access] state_directory).")
    var stateDir: String?

    @Option(help: "Control socket for `hotcold web pair` (overrides [access] control_socket).")
    var controlSocket: String?

    @Option(help: "The daemon's configuration, for its writer rule (overrides [daemon] config).")
    var daemonConfig: String?

    func run() async throws {
        // Before anything asks Foundation for the time zone (BoxTimeZone says why).
        let zone = BoxTimeZone.pinProcessToGMT()
        var c: WebConfiguration
        let rule: WriterRule
        do throws(ConfigError) {
            c = try config.map { path throws(ConfigError) in try WebConfigLoader.load(path: path) } ?? WebConfiguration()
            if let socket { c.daemon.socket = socket }
            if let listen { c.listen.address = listen }
            if let port { c.listen.port = port }
            if let stateDir { c.access.stateDirectory = stateDir }
            if let controlSocket { c.access.controlSocket = controlSocket }
            if let daemonConfig { c.daemon.config = daemonConfig }
            rule = try WriterRule.load(daemonConfig: c.daemon.config)
        } catch {
            Self.say("\(error)")
            throw ExitCode(78)    // EX_CONFIG, as hotcoldd
        }
        if let note = FileLimit.fit(&c) { Self.say(note) }
        let store: TokenStore
        do { store = try TokenStore(directory: c.access.stateDirectory, maxDevices: c.access.maxDevices) } catch {
            Self.say("\(error)")
            throw ExitCode(73)
        }
        for notice in store.notices { Self.say(notice) }
        let server = WebServer(config: c, store: store, timeZone: zone)
        let control = ControlSocket(path: c.access.controlSocket, store: store, rule: rule, daemonSocket: c.daemon.socket,
                                    tokenDays: c.access.tokenDays, linkMinutes: c.access.linkMinutes, baseURL: server.baseURL)
        do { try control.start() } catch {
            Self.say(error.message)
            throw ExitCode(73)
        }
        let address = c.listen.address
        let note = "for \(c.daemon.socket); pairing on \(c.access.controlSocket)"
        let app = server.application { port in
            Self.say("serving http://\(address.contains(":") ? "[\(address)]" : address):\(port) \(note)")
        }
        // Sessions count down on the boot clock: on disk every quarter hour and at a clean stop,
        // so a power cut leaves at most that much uncharged.
        let accounting = Task { await store.keepAccounts() }
        defer {
            accounting.cancel()
            if !store.all.isEmpty {
                do { try store.account() } catch { Self.say(error.description) }
            }
        }
        try await app.runService()
    }

    /// One line to the journal (stderr), in one write so that threads' lines never interleave.
    static func say(_ s: String) {
        let line = Array("hotcold-web: \(s)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
