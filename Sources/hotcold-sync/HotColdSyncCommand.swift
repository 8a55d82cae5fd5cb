import ArgumentParser
import Dispatch
import Foundation
import HotColdConfig
import HotColdCore
import HotColdProtocol
import HotColdSync

/// `hotcold-sync`: the Big Things web sync as its own process. Thin: reads the configuration
/// and the token, then runs ``SyncLoop`` over the daemon's socket (``DaemonOutboxStore``),
/// woken by the daemon's QUEUED events (``OutboxWatcher``).
@main
struct HotColdSyncCommand: AsyncParsableCommand {
    static let installedConfig = "/usr/local/etc/hotcold/hotcoldd.toml"

    static let configuration = CommandConfiguration(
        commandName: "hotcold-sync",
        abstract: "Keep the Big Things catalogue current and deliver queued ratings and submissions, through the daemon.",
        discussion: """
            Talks to the web API ([api] base_url, over https://) and to hotcoldd's socket, never to \
            the database file: the daemon applies the catalogue and records each delivery. Syncs \
            every [api] sync_interval seconds, and within a second or two of anything being queued \
            (the daemon's QUEUED event). The API token comes from $CREDENTIALS_DIRECTORY/api-token \
            (systemd LoadCredential=), else --token-file, else [api] token.

            Examples:
              hotcold-sync --config /usr/local/etc/hotcold/hotcoldd.toml
              hotcold-sync --once --api https://bigthings.example/api
            """,
        version: "hotcold-sync \(ProtocolVersion.release) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))")

    @Option(help: ArgumentHelp("The configuration file. Default: \(installedConfig) when it exists.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The daemon's socket (default: [socket] path).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("The web API's base URL (overrides [api] base_url).", valueName: "URL"))
    var api: String?

    @Flag(name: .customLong("allow-http-loopback"), help: "Allow a plain http:// API URL to a loopback address (tests).")
    var allowHTTPLoopback = false

    @Option(name: .customLong("token-file"), help: ArgumentHelp("A file holding the API token.", valueName: "FILE"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Seconds between syncs (overrides [api] sync_interval).", valueName: "SECONDS"))
    var interval: Double?

    @Option(help: ArgumentHelp("Seconds each web request may take, from connecting to the reply's last byte.", valueName: "SECONDS"))
    var timeout: Double = 30

    @Option(name: .customLong("max-wait"),
            help: ArgumentHelp("Seconds one sync may spend waiting to retry what failed (0: no retries within a sync).", valueName: "SECONDS"))
    var maxWait: Double = 60

    @Flag(help: "Sync once and exit (non-zero when the API or the daemon cannot be reached, or the catalogue could not be updated): for a timer unit.")
    var once = false

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be 0–600 seconds") }
        guard maxWait >= 0, maxWait <= 3600 else { throw ValidationError("--max-wait must be 0–3600 seconds") }
        if let interval { guard interval >= 1, interval <= 86_400 * 7 else { throw ValidationError("--interval must be 1 s to 7 days") } }
    }

    func run() async throws {
        let c = try loadConfiguration()
        var apiConfig = c.api
        if let api { apiConfig.baseURL = api }
        if allowHTTPLoopback { apiConfig.allowHTTPLoopback = true }
        if let interval { apiConfig.syncIntervalSeconds = interval }
        let socketPath = socket ?? c.socket.path
        let token = try Credentials.apiToken(file: tokenFile) ?? (c.api.token.isEmpty ? nil : c.api.token)
        let store = DaemonOutboxStore(socketPath: socketPath)
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data(("hotcold-sync: " + line + "\n").utf8))
        }
        let loop: SyncLoop
        // Created before the loop so that each sync's report reaches the daemon's `status`;
        // it wakes the loop (set below) when something is queued.
        let nudge = NudgeTarget()
        let watcher = OutboxWatcher(socketPath: socketPath, log: log) { nudge.fire() }
        do {
            guard let l = try SyncLoop.fromConfiguration(apiConfig, store: store, token: token, timeout: timeout, maxWait: maxWait,
                                                         onReport: { report in
                                                             log(report.summary.replacingOccurrences(of: "\n", with: "; "))
                                                             watcher.report(Self.serviceReport(report))
                                                         })
            else {
                log("no web API is configured: set [api] base_url in \(config ?? Self.installedConfig) or give --api URL")
                throw ExitCode(78)
            }
            loop = l
        } catch let e as BaseURL.Problem {
            log("\(api != nil ? "--api" : "[api] base_url"): \(e.description)")
            throw ExitCode(78)
        }
        // The HTTP client's connections are closed on every way out (a dropped client would
        // shut down in the background, racing the exit).
        let client = loop.syncer.client
        if once {
            let report = await loop.syncer.sync()
            await client.shutdown()
            print(report.summary)
            if let problem = report.unreachable { log(problem); throw ExitCode(1) }
            // A server that answered with what we refuse (too big, too slow, not a catalogue) is a failed sync too.
            if case .failed(let m)? = report.catalogue { log("the catalogue was not updated: \(m)"); throw ExitCode(1) }
            return
        }
        log("syncing \(loop.syncer.client.baseURL.absoluteString) through \(socketPath) every \(Int(loop.interval)) s")
        nudge.set { loop.nudge() }
        watcher.report(ReportRequest(service: "hotcold-sync", state: "starting",
                                     detail: "every \(Int(loop.interval)) s to \(loop.syncer.client.baseURL.host ?? "?")"))
        watcher.start()
        let task = Task { await loop.run() }
        let signals = Self.stopOnSignals { task.cancel() }
        await task.value
        await client.shutdown()
        watcher.stop()
        signals.forEach { $0.cancel() }
        log("stopped")
    }

    /// What `hotcold status` shows for this service after a sync.
    static func serviceReport(_ r: SyncReport) -> ReportRequest {
        let detail: String
        if let problem = r.unreachable {
            detail = problem
        } else {
            detail = "synced at \(ISO8601.format(Date())): \(r.delivered.count) delivered, \(r.failed.count) refused"
        }
        return ReportRequest(service: "hotcold-sync", state: r.unreachable == nil ? "idle" : "error", pending: max(0, r.pending),
                             detail: Limits.prefix(detail, max: Limits.nameLength))
    }

    func loadConfiguration() throws -> Configuration {
        do {
            if let config { return try ConfigLoader.load(path: config) }
            if FileManager.default.fileExists(atPath: Self.installedConfig) { return try ConfigLoader.load(path: Self.installedConfig) }
            return Configuration()
        } catch {
            FileHandle.standardError.write(Data("hotcold-sync: \(error.description)\n".utf8))
            throw ExitCode(78)
        }
    }

    /// SIGTERM and SIGINT cancel the loop (a request in flight ends at once; its item stays
    /// pending and goes again, with the same key, next time).
    static func stopOnSignals(_ stop: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { sig in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler(handler: stop)
            s.resume()
            return s
        }
    }
}

/// Where the API token comes from: systemd's credentials directory first (`LoadCredential=api-token:…`,
/// readable by this service only), then a file given on the command line.
enum Credentials {
    static func apiToken(file: String?) throws -> String? {
        if let dir = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"], !dir.isEmpty {
            let path = (dir as NSString).appendingPathComponent("api-token")
            // An empty credential is the unit's SetCredential= default: no token given there.
            if FileManager.default.fileExists(atPath: path), let token = try read(path) { return token }
        }
        return try file.flatMap(read)
    }

    /// The token in the file, or nil when it is empty.
    static func read(_ path: String) throws -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the API token from \(path)")
        }
        guard data.count <= 4096 else { throw ValidationError("\(path): an API token of \(data.count) bytes is too long (4096 at most)") }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if token.isEmpty { return nil }
        guard !token.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }) else {
            throw ValidationError("\(path): the API token must be one line of text")
        }
        return token
    }
}

/// The sync loop's nudge, known only once the loop exists (the watcher is made first).
final class NudgeTarget: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    func set(_ a: @escaping @Sendable () -> Void) { lock.lock(); action = a; lock.unlock() }
    func fire() { lock.lock(); let a = action; lock.unlock(); a?() }
}
