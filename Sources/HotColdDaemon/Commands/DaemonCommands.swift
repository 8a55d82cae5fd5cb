import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore
import Logging
import Synchronization

/// The socket protocol's commands (see PROTOCOL.md and `HotColdProtocol.Request`). Each line
/// is decoded and validated once, by the protocol types; every reply is a protocol value, and
/// every mistake an `ERROR` with a code naming it. Nothing a client sends can stop the daemon.
///
/// Anything that touches SQLite (store reads and writes, hunt/roam target lookups, imports,
/// exports) runs off the socket's loop thread on its user's own queue (`UserWorkQueues`), so
/// one user's reads never hold up another user's writes; its reply is sent when ready.
final class DaemonCommands: SocketCommandHandler {
    public let host: EngineHost
    let server: SocketServer
    let authorisation: Mutex<PeerAuthorisation>
    let status: @Sendable () -> StatusExtras
    let logger: Logger
    let store: StoreExecutor?
    let staging: UploadStaging
    /// Whether the path still names the database file the daemon has open.
    let databaseWatch: DatabaseFileWatch?
    /// Companion services' last reports, for `status`.
    public let services = ServiceReports()
    /// Called after a change through the store (a rating to send: the sync loop goes at once).
    let storeChanged: @Sendable () -> Void
    // Slow work runs here, per user in arrival order, off the socket's loop thread.
    private let work = UserWorkQueues()
    /// Who anyone here follows (admits `friend_fix` on the loop, without a database read).
    let followed: FollowedDevices
    /// Where the last hunt or roam is kept across restarts (nil: not kept).
    let savedTracking: SavedTracking?
    /// Connections a proxy said act for another user (`act_for`).
    let acting = ActingClients()
    /// The places of the current hunt that are gone, and why (by id): their STATUS and TARGETS
    /// targets say so. A roam has none (it never tracks a gone place).
    let goneTracked = Mutex<[String: String]>([:])

    struct StatusExtras: Sendable {
        var logStatus: EventLogStatus?
        var configPath: String?
        public var database: String?
        var databaseSyncs: Int?
        var uncleanStop: StatusReply.UncleanStop?
        var feed: StatusReply.Feed?
        init(logStatus: EventLogStatus?, configPath: String?, database: String? = nil,
                    databaseSyncs: Int? = nil, uncleanStop: StatusReply.UncleanStop? = nil, feed: StatusReply.Feed? = nil) {
            self.logStatus = logStatus
            self.configPath = configPath
            self.database = database
            self.databaseSyncs = databaseSyncs
            self.uncleanStop = uncleanStop
            self.feed = feed
        }
    }

    /// `stagingDirectory` holds uploads in progress (default: a private directory under the
    /// system's temporary directory).
    init(host: EngineHost, server: SocketServer, authorisation: PeerAuthorisation,
                store: Store? = nil, storeChanged: @escaping @Sendable () -> Void = {},
                stagingDirectory: String? = nil, stagingLimits: StagingLimits = StagingLimits(),
                logger: Logger, status: @escaping @Sendable () -> StatusExtras, savedTracking: SavedTracking? = nil) {
        self.savedTracking = savedTracking
        self.store = store.map(StoreExecutor.init)
        self.followed = FollowedDevices((try? store?.followedDevices()) ?? [], own: (try? store?.ownDevice()) ?? nil)
        self.databaseWatch = store.map { DatabaseFileWatch(path: $0.path, logger: logger) }
        self.storeChanged = storeChanged
        self.host = host
        self.server = server
        self.authorisation = Mutex(authorisation)
        self.status = status
        self.logger = logger
        let stagingDirectory = stagingDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hotcoldd-uploads-\(getuid())").path
        // Submissions' photos wait beside the uploads (one filesystem: a photo is linked in, not
        // copied), in the daemon's private state directory; a file no waiting item names is
        // left from a delivery or a crash, and goes now.
        let photos = store.map { store in
            PhotoStore(directory: URL(fileURLWithPath: stagingDirectory).deletingLastPathComponent().appendingPathComponent("photos").path,
                       limit: stagingLimits.photoStoreBytes, keep: try? store.pendingPhotoFiles())
        }
        if let photos {
            if let problem = photos.problem { logger.error("photos cannot be kept for submissions: \(problem)") }
            if !photos.removed.isEmpty { logger.notice("removed \(photos.removed.count) photo file(s) no waiting submission names") }
        }
        self.staging = UploadStaging(directory: stagingDirectory, limits: stagingLimits, photos: photos)
    }

    func setAuthorisation(_ a: PeerAuthorisation) { authorisation.withLock { $0 = a } }

    func greeting(for client: ClientInfo) -> [String] { [ProtocolVersion.greeting] }

    func disconnected(_ client: ClientInfo, reason: String) {
        // After the work this connection queued: a `submit` read before the client went away is
        // still carried out with its photo (and a repeat of it, with its key, finds it stored).
        let id = client.id
        work.async(user: Self.user(acting.identity(of: client))) { [staging] in staging.forget(id) }
        acting.forget(client.id)
        services.closed(client.id)
        host.publisher?.cancelCatchUp(client: client.id)
    }

    /// One line in, the reply out (or later, for work off the loop). Decoding and validation
    /// are the protocol's; authorisation, write charging and where the work runs are applied
    /// here, once for every command; what each command does is its entry in ``route(_:for:)``.
    public func handle(line: String, from peer: ClientInfo) -> [String] {
        // After `act_for`, the connection is the user it acts for, in everything below.
        let client = acting.identity(of: peer)
        let request: Request
        switch Request.decode(line: line) {
        case .failure(let e): return [Self.error(e)]
        case .success(let r): request = r
        }
        let command = request.command.rawValue
        if request.command.writes, !mayWrite(client) {
            return [Self.error(ProtocolError(.notAllowed, command: command,
                "not allowed for \(Self.who(client)); changes need a user in allowed_users or a group in allowed_groups (config [socket])"))]
        }
        if CommandClass.chargesWriteRate(request), let busy = server.chargeWrite(for: client) {
            return [Self.error(ProtocolError(.busy, command: command, busy))]
        }
        switch route(request, for: client) {
        case .loop(let answer):
            do { return try answer() } catch { return [Self.error(error)] }
        case .work(let answer):
            later(client, answer)
        case .store(let answer):
            guard let store else {
                return [Self.error(ProtocolError(.busy, command: command, "no database is open in the daemon"))]
            }
            let changes = request.changesState
            later(client) {
                do {
                    // A change to a deleted database file would vanish at the next start.
                    if changes { try self.requireDatabaseFile(command) }
                    return try answer(store)
                } catch {
                    throw StoreExecutor.protocolError(error, command: command)
                }
            }
        }
        return []
    }

    /// Runs `body` on the work queue and sends its reply line (or its error) to `client`.
    /// The client's input is held until then (`SocketServer.deferReply`): one such command in
    /// flight per connection, replies in the order of the commands.
    func later(_ client: ClientInfo, _ body: @escaping @Sendable () throws -> String) {
        let reply = server.deferReply(for: client.id)
        work.async(user: Self.user(client)) {
            do { reply.send(try body()) } catch {
                reply.send(Self.error(error))
            }
        }
    }

    // MARK: - Commands

    func watch(_ w: WatchRequest, _ client: ClientInfo) -> String? {
        let sub = Subscription(watching: w.enable, classes: w.classes.map(Set.init), targets: w.targets.map(Set.init),
                               reader: Self.isAdministrator(client) ? nil : Self.user(client))
        let reply = WatchReply(enable: w.enable, classes: w.classes, targets: w.targets)
        host.publisher?.cancelCatchUp(client: client.id)
        // With `since`: the log's events first, then live; the reply comes from the replay.
        if w.enable, let since = w.since, let publisher = host.publisher {
            return publisher.watch(client: client.id, subscription: sub, since: since, reply: reply)
        }
        _ = server.setWatch(client: client.id, sub)
        return WireCoding.line(reply)
    }

    /// `keep`: stored (synced) before the change, to be restored after a restart.
    func hunt(_ h: HuntRequest, user: String = CurrentUser.name, keep: Bool = true) throws -> String {
        var targets: [Target] = []
        for (i, s) in h.targets.enumerated() {
            do {
                targets.append(try TargetSpec.parse(s, index: i + 1, places: host.placeRecords))
            } catch {
                throw ProtocolError(.badField, command: "hunt", field: "targets[\(i)]", "target \(i + 1): \(error)")
            }
        }
        // A place asked for by its id is hunted even when it is gone, and said to be.
        let gone = (try? host.placeRecords?.goneReasons(ids: targets.map(\.id))) ?? [:]
        if keep { try savedTracking?.save(.hunt(h), user: user) }
        goneTracked.withLock { $0 = gone }
        host.retarget(targets, tracking: .hunt)
        logger.info("hunting \(targets.count) target(s)\(gone.isEmpty ? "" : ", \(gone.count) of them gone")")
        let goneTargets = targets.compactMap { t in gone[t.id].map { TrackingReply.GoneTarget(id: t.id, name: t.name, gone: $0) } }
        return WireCoding.line(TrackingReply(mode: "hunt", targets: targets.count, gone: goneTargets.isEmpty ? nil : goneTargets))
    }

    public func roam(_ r: RoamRequest, user: String, keep: Bool = true) throws -> String {
        guard let places = host.placeRecords else {
            throw ProtocolError(.busy, command: "roam", "no store is open, so there are no places to roam among")
        }
        let filter = RoamFilter(kinds: r.kinds.map { TargetKind($0) }, favouritesOnly: r.favourites, unseenOnly: r.unseen, user: user)
        let targets: [Target]
        do {
            targets = try places.roamTargets(filter)
        } catch {
            throw ProtocolError(.internal, command: "roam", "cannot load places: \(error)")
        }
        var desc = filter.kinds.map { $0.rawValue }.joined(separator: ",")
        if filter.favouritesOnly { desc += " favourites" }
        if filter.unseenOnly { desc += " unseen" }
        if keep { try savedTracking?.save(.roam(r), user: user) }
        goneTracked.withLock { $0 = [:] }
        host.retarget(targets, tracking: .init(mode: .roam(radius: r.radius), filter: desc))
        // The radius is checked at decode (0 < r ≤ 20,000 km), and printed as a Double: no
        // conversion here can trap.
        logger.info("roaming among \(targets.count) places within \(DistanceFormat.text(r.radius))")
        return WireCoding.line(TrackingReply(mode: "roam", radiusM: r.radius.rounded(), targets: targets.count))
    }

    /// The STATUS value: snapshots of the engine, socket and log, taken under their own locks
    /// and assembled here. The database path goes only to clients that may write.
    func statusReply(for client: ClientInfo?) -> StatusReply {
        let e = host.statusSnapshot()
        let c = server.counters
        let extras = status()
        let log = extras.logStatus.map {
            StatusReply.Log(path: $0.path, writing: $0.isWriting, error: $0.error,
                            linesWritten: $0.linesWritten, linesLost: $0.linesLost, queued: $0.queued,
                            dropped: $0.dropped, gaps: $0.gaps, stalledS: $0.stalledSeconds,
                            syncs: $0.syncs, databaseSyncs: extras.databaseSyncs)
        }
        let mayWrite = client.map(self.mayWrite) ?? true
        let nearest = markGone(Self.nearestFirst(e.targets))
        return StatusReply(
            time: Date(), uptimeS: host.uptimeSeconds, gps: e.gps, tracking: e.tracking,
            targets: Array(nearest.prefix(Limits.statusTargets)),
            counters: e.counters, latencyUs: e.latency, visits: e.visits, sequence: e.sequence,
            socket: .init(path: server.path ?? "", clients: c.clients, clientsTotal: c.accepted, dropped: c.dropped,
                          linesIn: c.linesIn, linesOut: c.linesOut, maxClients: c.maxClients,
                          connectionsRefused: c.connectionsRefused, writesRefused: c.writesRefused),
            log: log, config: extras.configPath, database: mayWrite ? extras.database : nil,
            services: services.snapshot(),
            targetsMore: nearest.count > Limits.statusTargets ? nearest.count - Limits.statusTargets : nil,
            databaseError: databaseWatch?.check(),
            friends: e.friends.isEmpty ? nil : e.friends,
            uncleanStop: extras.uncleanStop, feed: extras.feed)
    }

    /// A page of the tracked targets, nearest first (`targets`): the full list STATUS cuts.
    func targetsPage(_ r: TargetsRequest) -> TargetsReply {
        let all = Self.nearestFirst(host.statusSnapshot().targets)
        let page = r.offset < all.count ? Array(all[r.offset..<min(all.count, r.offset + r.limit)]) : []
        return TargetsReply(offset: r.offset, total: all.count, targets: markGone(page))
    }

    /// The targets with why each gone one is gone.
    func markGone(_ targets: [StatusReply.TargetState]) -> [StatusReply.TargetState] {
        let gone = goneTracked.withLock { $0 }
        guard !gone.isEmpty else { return targets }
        return targets.map { t in
            var t = t
            t.gone = gone[t.target.id]
            return t
        }
    }

    /// Nearest first, ties by id: the order both STATUS and `targets` list targets in.
    static func nearestFirst(_ t: [StatusReply.TargetState]) -> [StatusReply.TargetState] {
        t.sorted { ($0.distanceM, $0.target.id) < ($1.distanceM, $1.target.id) }
    }

    /// Refuses a change when the database file was deleted or replaced under the daemon: it
    /// would land in a file no one can reach and vanish at the next start.
    func requireDatabaseFile(_ command: String) throws(ProtocolError) {
        if let problem = databaseWatch?.check() {
            throw ProtocolError(.internal, command: command, problem)
        }
    }

    // MARK: - Helpers

    func mayWrite(_ client: ClientInfo) -> Bool { authorisation.withLock { $0.isAuthorised(client) } }

    /// Root or the daemon's own user: may read every user's personal records.
    /// A connection acting for a user (`act_for`) is that user only, whoever it is.
    static func isAdministrator(_ client: ClientInfo) -> Bool { client.via == nil && (client.uid == 0 || client.uid == getuid()) }

    /// The name a client's changes are recorded under (`#UID` for a uid with no passwd entry).
    static func user(_ client: ClientInfo) -> String { client.recordedName }

    static func error(_ error: any Error) -> String {
        let e = (error as? ProtocolError) ?? ProtocolError(.internal, command: nil, "\(error)")
        return WireCoding.line(ErrorReply(e))
    }

    static func who(_ c: ClientInfo) -> String {
        "uid \(c.uid)\(c.userName.map { " (\($0))" } ?? "")\(c.via.map { " (through \($0))" } ?? "")"
    }
}
