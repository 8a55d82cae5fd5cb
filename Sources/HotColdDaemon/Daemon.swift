import Foundation
import GPSInput
import HotColdConfig
import HotColdCore
import HotColdProtocol
import HotColdStore
import Logging
import ServiceLifecycle
import UnixSignals

/// `hotcoldd`: gpsd in, events out. Builds the parts (``assemble()``), runs them as services
/// of one `ServiceGroup` (``services(_:)``), which takes them down in reverse order on
/// SIGTERM/SIGINT: reload and heartbeat, gpsd input, the socket's clients, the log.
///
/// ```swift
/// let config = try Daemon.loadConfiguration(path: "/usr/local/etc/hotcold/hotcoldd.toml", overrides: flags)
/// try await Daemon(configuration: config, configPath: path, logger: logger).run()
/// ```
public final class Daemon: Sendable {
    let configPath: String?
    let overrides: DaemonOverrides
    let logger: Logger
    private let current: Mutex<Configuration>
    /// SIGHUP, trapped by ``run()`` before the services start; handed to the ReloadService.
    private let earlyHangups = Mutex<UnixSignalsSequence?>(nil)

    public init(configuration: Configuration, configPath: String?, overrides: DaemonOverrides, logger: Logger) {
        self.current = Mutex(configuration)
        self.configPath = configPath
        self.overrides = overrides
        self.logger = logger
    }

    /// The file (when given) with the flags applied.
    public static func loadConfiguration(path: String?, overrides: DaemonOverrides) throws(ConfigError) -> Configuration {
        var c = Configuration()
        if let path { c = try ConfigLoader.load(path: path) }
        try overrides.apply(to: &c)
        return c
    }

    /// Runs until SIGTERM or SIGINT. Start-up happens inside the service group, after it has
    /// trapped those signals, so a stop request that arrives while starting is never lost.
    public func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        // Trapped first: a SIGHUP (logrotate, a reload) while starting must not end the daemon.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        earlyHangups.withLock { $0 = hangups }
        let group = ServiceGroup(services: [DaemonService(daemon: self)],
                                 gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }

    /// Builds everything and runs it until graceful shutdown (this is the one service of the
    /// signal-handling group, so a stop that arrives while starting is never lost).
    func serve() async throws {
        let parts = try assemble()
        let group = ServiceGroup(configuration: .init(services: services(parts).map { .init(service: $0) }, logger: logger))
        try await group.run()
        parts.markCleanStop()
    }

    /// The services that run `parts`, in start order (they stop in reverse).
    public func services(_ parts: DaemonParts) -> [any Service] {
        let config = current.withLock { $0 }
        let reload: @Sendable () -> Void = { [self] in
            _ = parts.notifier.reloading()
            parts.outputs.log?.requestReopen()
            self.reloadConfiguration(parts)
            _ = parts.notifier.ready(status: parts.host.summary())
        }
        let tracking = parts.host.trackingDescription
        let startLine = "hotcoldd \(ProtocolVersion.release): gpsd \(config.gpsd.host):\(config.gpsd.port), socket \(parts.server.path ?? "?"), log \(config.log.path); \(tracking.modeName) with \(parts.targetCount) targets"
        return [
            LogWriterService(writer: parts.outputs.log ?? LogWriter(log: nil, logger: logger)),
            OutputStageService(stage: parts.stage),
            SocketService(server: parts.server, handler: parts.commands),
            VisitRecorderService(recorder: parts.host.visitRecorder),
            GPSDReadingService(gpsd: parts.gpsd, host: parts.host, notifier: parts.notifier, logger: logger, startLine: startLine),
            HeartbeatService(host: parts.host, stage: parts.stage, notifier: parts.notifier),
            HousekeepingService(staging: parts.commands.staging, databaseWatch: parts.commands.databaseWatch),
            ReloadService(reload: reload, hangups: earlyHangups.withLock { $0 }),
        ]
    }

    /// Opens the store, the log and the socket (listening), and wires the engine's host and
    /// the command handlers; gpsd is not read until the services run.
    public func assemble(notifier: SystemdNotifier = SystemdNotifier()) throws -> DaemonParts {
        let config = current.withLock { $0 }
        // Before anything in it is read or written: a directory others can write is refused.
        try Self.ensureStateDirectory(config)
        let places = openStore(config)
        let (targets, description) = initialTargets(config, places: places)

        try? FileManager.default.createDirectory(
            atPath: (config.log.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let log = EventLog(path: config.log.path, logger: logger)
        // Before anything is numbered: was the last stop clean? If not, the log says which
        // numbers it may have lost (a GAP line) before the sequence moves past them.
        let sequencePath = Self.sequencePath(database: config.store.database)
        let stopMark = StopMark(stateDirectory: Self.stateDirectory(database: config.store.database), logger: logger)
        var reservedBefore: Int?
        if case .value(let v) = EventSequence.load(sequencePath) { reservedBefore = v }
        let uncleanStop = stopMark.starting(log: log, lastLogged: EventLogReader().lastSequence(path: config.log.path),
                                            reservedBefore: reservedBefore)
        let sequence = EventSequence(path: sequencePath,
                                     logFloor: EventLogReader().lastSequence(path: config.log.path) ?? 0,
                                     logger: logger)
        let restored = restoredArrivals(places)
        let server = try openSocket(config.socket)
        let outputs = EventPublisher(socket: server, log: LogWriter(log: log, logger: logger), sequence: sequence, logger: logger)
        let stage = OutputStage(publisher: outputs, logger: logger)
        let host = EngineHost(
            engine: ProximityEngine(targets: targets, mode: description.mode, config: config.engine),
            tracking: description, sink: stage, places: places,
            arrivalUser: CurrentUser.name, restored: restored, friends: Self.friends(config.friends), logger: logger)
        // The web API is not the daemon's business (no HTTP, no TLS, no token here): the
        // separate hotcold-sync process delivers the outbox through the socket's `sync`
        // command, woken by the QUEUED events this announcer sends when something is queued.
        let announcer = places.map { OutboxAnnouncer(store: $0.store, sink: stage) }
        // This car's arrivals and records become its own feed items, numbered by their events.
        let ownFeed = places.map { OwnFeedRecorder(store: $0.store, logger: logger) }
        if let ownFeed { outputs.observe { event, seq in ownFeed.published(event, seq: seq) } }
        let configPath = self.configPath
        let commands = DaemonCommands(
            host: host, server: server,
            authorisation: authorisation(config.socket),
            store: places?.store,
            storeChanged: { announcer?.storeChanged() },
            // Uploads are staged beside the database (the daemon's private state directory).
            stagingDirectory: places == nil ? nil
                : URL(fileURLWithPath: config.store.database).deletingLastPathComponent().appendingPathComponent("uploads").path,
            stagingLimits: Self.stagingLimits(config.quotas),
            logger: logger,
            status: { [database = places != nil ? config.store.database : nil, store = places?.store] in
                DaemonCommands.StatusExtras(logStatus: outputs.log?.status, configPath: configPath, database: database,
                                            databaseSyncs: store?.commitSyncs, uncleanStop: uncleanStop,
                                            feed: store.map { StatusReply.Feed(dropped: $0.feedItemsDropped, ownNotKept: ownFeed?.dropped ?? 0) })
            },
            savedTracking: SavedTracking(path: Self.stateDirectory(database: config.store.database) + "/tracking.json",
                                         configured: config.tracking, logger: logger))
        restoreTracking(config, commands: commands)
        settleMemory(places?.store)
        return DaemonParts(places: places, server: server, outputs: outputs, stage: stage, host: host, commands: commands,
                           gpsd: GPSDSource(host: config.gpsd.host, port: config.gpsd.port),
                           notifier: notifier, targetCount: host.trackingCount, stopMark: stopMark)
    }

    /// Gives back what the start's one-off work left behind — SQLite's page caches after the
    /// catalogue's load and the first roam, and the heap's free pages after it — so the daemon
    /// rests about 1 MB smaller on a box whose programs share 30 MB. The caches refill with what
    /// the daemon reads from then on.
    private func settleMemory(_ store: Store?) {
        store?.releaseMemory()
        _ = glibcMallocTrim(0)
    }

    /// The last hunt or roam a client set, unless a flag or an edited `[tracking]` says
    /// otherwise (see ``SavedTracking``).
    private func restoreTracking(_ config: Configuration, commands: DaemonCommands) {
        guard config.tracking.restore, overrides.targets.isEmpty, overrides.roam == nil,
              let saved = commands.savedTracking?.load() else { return }
        do {
            switch saved.request {
            case .hunt(let h): _ = try commands.hunt(h, keep: false)
            case .roam(let r): _ = try commands.roam(r, user: saved.user, keep: false)
            default: return
            }
            logger.info("restored the tracking set before the restart: \(saved.request.line)")
        } catch {
            logger.error("cannot restore the tracking set before the restart (\(saved.request.line)): \(error); tracking as the configuration says")
        }
    }

    /// Storage is optional at run time: a database that cannot be opened is reported and the
    /// daemon tracks what the configuration names without it.
    private func openStore(_ config: Configuration) -> StorePlaceRecords? {
        do {
            try FileManager.default.createDirectory(
                atPath: (config.store.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let store = try Store.open(path: config.store.database, quotas: Self.storeQuotas(config.quotas))
            if config.store.catalogue.isEmpty {
                if let report = try store.loadBundledCatalogueIfEmpty() {
                    logger.info("loaded the bundled Big Things catalogue: \(report.inserted) places, \(report.skipped.count) rows skipped, \(report.warnings.count) warnings (hotcold import shows them)")
                }
            } else if try store.targets(filter: TargetFilter(kinds: [.bigThing])).isEmpty {
                _ = try store.importFile(at: URL(fileURLWithPath: config.store.catalogue), strict: false, user: CurrentUser.name)
            }
            return StorePlaceRecords(store: store)
        } catch {
            logger.error("cannot open the database \(config.store.database): \(error); running without it")
            return nil
        }
    }

    /// The socket systemd passed (socket activation), else our own at the configured path.
    private func openSocket(_ c: Configuration.Socket) throws -> SocketServer {
        let endpoint: SocketEndpoint
        if let activated = try SocketActivation.listenFDs().first {
            endpoint = .adopted(fd: activated.fd)
            logger.info("using the socket passed by systemd (fd \(activated.fd))")
        } else {
            endpoint = .path(c.path, mode: UInt32(c.mode))
        }
        var options = SocketServerOptions()
        options.logger = logger
        options.maxClients = c.maxClients
        options.maxClientsPerUser = c.maxClientsPerUser
        options.writeBurst = c.writeBurst
        options.writesPerSecond = c.writesPerSecond
        let server = try SocketServer(endpoint: endpoint, options: options)
        if server.counters.maxClients < c.maxClients {
            logger.warning("socket: at most \(server.counters.maxClients) clients, not \(c.maxClients): the open-file limit (LimitNOFILE=) leaves no more room")
        }
        return server
    }

    /// Event sequence numbers are reserved in the state directory, beside the database: not
    /// beside the log, which logrotate moves away.
    static func sequencePath(database: String) -> String {
        stateDirectory(database: database) + "/event-seq"
    }

    /// Makes the state directory when it is missing, and refuses one others could write in
    /// (see ``StateDirectory``). `hotcoldd` calls it before starting, to end with EX_CONFIG.
    public static func ensureStateDirectory(_ config: Configuration) throws(StateDirectory.Refusal) {
        try StateDirectory.ensure(stateDirectory(database: config.store.database), database: config.store.database)
    }

    /// The daemon's private state (the sequence, the clean-stop mark, the kept tracking):
    /// the database's directory.
    static func stateDirectory(database: String) -> String {
        let dir = (database as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    static func friends(_ f: Configuration.Friends) -> FriendsSettings {
        FriendsSettings(staleAfter: f.staleAfterSeconds, forgetAfter: f.forgetAfterSeconds)
    }

    /// The stored places the device was at when the daemon last stopped (visits whose
    /// departure was never seen): no second ARRIVED for them.
    private func restoredArrivals(_ places: StorePlaceRecords?) -> Set<String> {
        guard let places else { return [] }
        do {
            let ids = try places.openArrivals(user: CurrentUser.name)
            if !ids.isEmpty { logger.info("restored: at \(ids.sorted().joined(separator: ", ")) (arrived before the restart, not departed)") }
            return ids
        } catch {
            logger.error("cannot read which places the device is at from the database: \(error); a restart there may count as a new arrival")
            return []
        }
    }

    /// Who may write, with names resolved now (never while a client waits).
    private func authorisation(_ socket: Configuration.Socket) -> PeerAuthorisation {
        let a = PeerAuthorisation(allowedUsers: socket.allowedUsers, allowedGroups: socket.allowedGroups, proxies: socket.proxies)
        if !a.unresolved.isEmpty {
            logger.warning("socket: allowed \(a.unresolved.joined(separator: ", ")) not found; ignored until a reload finds them")
        }
        return a
    }

    static func storeQuotas(_ q: Configuration.Quotas) -> StoreQuotas {
        var s = StoreQuotas()
        s.locationsPerUser = q.locationsPerUser
        s.observationsPerUser = q.observationsPerUser
        s.pendingSubmissionsPerUser = q.pendingSubmissionsPerUser
        s.notesPerUser = q.notesPerUser
        s.manualVisitsPerUser = q.manualVisitsPerUser
        s.importedPlacesPerUser = q.importedPlacesPerUser
        return s
    }

    static func stagingLimits(_ q: Configuration.Quotas) -> StagingLimits {
        var l = StagingLimits()
        l.bytesPerUser = q.stagedMiBPerUser << 20
        l.idleSeconds = Double(q.stagedIdleSeconds)
        l.freeSpaceReserve = q.freeSpaceReserveMiB << 20
        return l
    }

    private func initialTargets(_ c: Configuration, places: StorePlaceRecords?)
        -> ([Target], EngineHost.TrackingDescription) {
        switch c.tracking.mode {
        case .hunt:
            var targets: [Target] = []
            for (i, spec) in c.tracking.targets.enumerated() {
                do {
                    targets.append(try TargetSpec.parse(spec, index: i + 1, places: places))
                } catch {
                    logger.error("hunt target \"\(spec)\" skipped: \(error)")
                }
            }
            return (targets, .hunt)
        case .roam:
            var targets: [Target] = []
            if let places {
                do {
                    targets = try places.roamTargets(RoamFilter(kinds: c.tracking.roamKinds.map { TargetKind($0) }, user: CurrentUser.name))
                } catch {
                    logger.error("cannot load places to roam among: \(error)")
                }
            }
            return (targets, .init(mode: .roam(radius: c.tracking.roamRadius), filter: c.tracking.roamKinds.joined(separator: ",")))
        }
    }

    /// SIGHUP: a good file replaces what can change live (engine tuning, tracking, who may
    /// write, the log path); a bad one is reported and the running configuration kept.
    private func reloadConfiguration(_ parts: DaemonParts) {
        let (host, commands, outputs, places) = (parts.host, parts.commands, parts.outputs, parts.places)
        guard let configPath else {
            logger.notice("reload: the log is reopened; no configuration file to re-read (started without --config)")
            return
        }
        let fresh: Configuration
        do {
            fresh = try Self.loadConfiguration(path: configPath, overrides: overrides)
        } catch {
            logger.error("reload: \(error.description); keeping the running configuration")
            return
        }
        let old = current.withLock { c in
            let o = c
            c = fresh
            return o
        }
        host.reconfigure(fresh.engine, friends: Self.friends(fresh.friends))
        let policy = authorisation(fresh.socket)
        commands.setAuthorisation(policy)
        if fresh.log.path != old.log.path {
            outputs.log?.replace(with: EventLog(path: fresh.log.path, logger: logger))
        }
        if fresh.tracking != old.tracking {
            let (targets, description) = initialTargets(fresh, places: places)
            host.retarget(targets, tracking: description)
        }
        var restartOnly = fresh.socket
        restartOnly.allowedUsers = old.socket.allowedUsers
        restartOnly.allowedGroups = old.socket.allowedGroups
        if fresh.gpsd != old.gpsd || restartOnly != old.socket || fresh.store != old.store || fresh.quotas != old.quotas {
            logger.warning("reload: gpsd, socket limits, quotas and store settings take effect after a restart")
        }
        logger.info("reloaded \(configPath)")
    }
}

import Synchronization

/// glibc's `malloc_trim` (malloc.h, which Swift's Glibc module does not export): returns the
/// heap's free pages to the kernel.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
