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
public final class DaemonCommands: SocketCommandHandler {
    let host: EngineHost
    let server: SocketServer
    let authorisation: Mutex<PeerAuthorisation>
    let status: @Sendable () -> StatusExtras
    let logger: Logger
    let store: StoreRPC?
    let staging: UploadStaging
    /// Whether the path still names the database file the daemon has open.
    let databaseWatch: DatabaseFileWatch?
    /// Companion services' last reports, for `status`.
    let services = ServiceReports()
    /// Called after a change through the store (a rating to send: the sync loop goes at once).
    let storeChanged: @Sendable () -> Void
    // Slow work runs here, per user in arrival order, off the socket's loop thread.
    private let work = UserWorkQueues()
    /// Who anyone here follows (admits `friend_fix` on the loop, without a database read).
    let followed: FollowedDevices

    public struct StatusExtras: Sendable {
        public var logStatus: EventLogStatus?
        public var configPath: String?
        public var database: String?
        public init(logStatus: EventLogStatus?, configPath: String?, database: String? = nil) {
            self.logStatus = logStatus
            self.configPath = configPath
            self.database = database
        }
    }

    /// `stagingDirectory` holds uploads in progress (default: a private directory under the
    /// system's temporary directory).
    public init(host: EngineHost, server: SocketServer, authorisation: PeerAuthorisation,
                store: Store? = nil, storeChanged: @escaping @Sendable () -> Void = {},
                stagingDirectory: String? = nil, stagingLimits: StagingLimits = StagingLimits(),
                logger: Logger, status: @escaping @Sendable () -> StatusExtras) {
        self.store = store.map(StoreRPC.init)
        self.followed = FollowedDevices((try? store?.followedDevices()) ?? [])
        self.databaseWatch = store.map { DatabaseFileWatch(path: $0.path, logger: logger) }
        self.storeChanged = storeChanged
        self.host = host
        self.server = server
        self.authorisation = Mutex(authorisation)
        self.status = status
        self.logger = logger
        self.staging = UploadStaging(directory: stagingDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hotcoldd-uploads-\(getuid())").path,
            limits: stagingLimits)
    }

    public func setAuthorisation(_ a: PeerAuthorisation) { authorisation.withLock { $0 = a } }

    public func greeting(for client: ClientInfo) -> [String] { [ProtocolVersion.greeting] }

    public func disconnected(_ client: ClientInfo, reason: String) {
        staging.forget(client.id)
        services.closed(client.id)
        host.publisher?.cancelCatchUp(client: client.id)
    }

    public func handle(line: String, from client: ClientInfo) -> [String] {
        let request: Request
        switch Request.decode(line: line) {
        case .failure(let e): return [Self.error(e)]
        case .success(let r): request = r
        }
        let command = request.command
        if command.writes, !mayWrite(client) {
            return [Self.error(ProtocolError(.notAllowed, command: command.rawValue,
                "not allowed for \(Self.who(client)); changes need a user in allowed_users or a group in allowed_groups (config [socket])"))]
        }
        if CommandClass.chargesWriteRate(command), let busy = server.chargeWrite(for: client) {
            return [Self.error(ProtocolError(.busy, command: command.rawValue, busy))]
        }
        switch request {
        case .version: return [ProtocolVersion.greeting]
        case .watch(let w): return watch(w, client).map { [$0] } ?? []
        case .status: return [WireCoding.line(statusReply(for: client))]
        case .targets(let t): return [WireCoding.line(targetsPage(t))]
        case .poll:
            let lines = host.poll()
            return lines + [WireCoding.line(PollReply(count: lines.count, at: host.visits.at))]
        case .hunt(let h): later(client) { try self.hunt(h) }
        case .roam(let r): later(client) { try self.roam(r, user: Self.user(client)) }
        case .upload(let u):
            // Staging touches only a private file: quick enough for the loop.
            do { return [WireCoding.line(try staging.begin(u, client: client.id, user: Self.user(client)))] } catch { return [Self.error(error)] }
        case .chunk(let c):
            do { return [WireCoding.line(try staging.append(c, client: client.id))] } catch { return [Self.error(error)] }
        case .download(let d):
            do { return [WireCoding.line(try staging.read(d, client: client.id))] } catch { return [Self.error(error)] }
        case .friendFix(let f):
            // Memory only (the radar, bounded): answered on the loop.
            do { return [try friendFix(f)] } catch { return [Self.error(error)] }
        case .report(let r):
            // Memory only, bounded by name: answered on the loop.
            do { try services.record(r, from: client.id) } catch { return [Self.error(error)] }
            return [WireCoding.line(ReportReply(service: r.service))]
        default:
            guard let store else {
                return [Self.error(ProtocolError(.busy, command: command.rawValue, "no database is open in the daemon"))]
            }
            later(client) { try self.storeCommand(request, store, client) }
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

    private func storeCommand(_ request: Request, _ store: StoreRPC, _ client: ClientInfo) throws -> String {
        let user = Self.user(client)
        let cmd = request.command.rawValue
        do {
            switch request {
            case .store(let r):
                try requireDatabaseFile(cmd)
                let line = try store.change(r, user: user)
                storeChanged()
                announceRecord(r, user: user)
                return line
            case .follow, .following, .feedItem, .feed, .like, .likeReceived:
                return try friendsCommand(request, store.store, client)
            case .search(let r): return try store.search(r, user: user)
            case .place(let r): return try store.place(r, user: user)
            case .near(let r):
                guard let origin = r.at ?? host.lastFixCoordinate else {
                    throw ProtocolError(.badField, command: "near", field: "lat", "missing, and the daemon has no fix yet")
                }
                return try store.near(r, from: origin, friends: host.nearbyFriends())
            case .visits: return try store.visits(user: user)
            // Personal records: a user's own, everyone's for the daemon's administrator.
            case .observations: return try store.observations(user: Self.isAdministrator(client) ? nil : user)
            case .outbox: return try store.outbox(user: Self.isAdministrator(client) ? nil : user)
            case .export(let r):
                // Written a page at a time to a staged file, read back by `download`.
                let staged = try staging.export(client: client.id, user: user) { write in
                    try store.export(r, user: user, to: write)
                }
                return WireCoding.line(ExportReply(id: staged.id, format: r.format, size: staged.size))
            case .import(let r):
                try requireDatabaseFile(cmd)
                let data = try staging.take(r.upload, purpose: .import, client: client.id, command: cmd)
                let report = try store.importData(data, r, user: user)
                storeChanged()
                return importReply(report, client: client, user: user)
            case .submit(let r):
                try requireDatabaseFile(cmd)
                let photo = try r.photo.map { p throws(ProtocolError) in
                    try staging.take(p.upload, purpose: .photo, client: client.id, command: cmd)
                }
                let line = try store.submit(r, photo: photo, user: user)
                storeChanged()
                return line
            default:
                throw ProtocolError(.internal, command: cmd, "not a store command")
            }
        } catch {
            throw StoreRPC.protocolError(error, command: request.command == .store ? "store" : cmd)
        }
    }

    // MARK: - Commands

    private func watch(_ w: WatchRequest, _ client: ClientInfo) -> String? {
        let sub = Subscription(watching: w.enable, classes: w.classes.map(Set.init), targets: w.targets.map(Set.init))
        let reply = WatchReply(enable: w.enable, classes: w.classes, targets: w.targets)
        host.publisher?.cancelCatchUp(client: client.id)
        // With `since`: the log's events first, then live; the reply comes from the replay.
        if w.enable, let since = w.since, let publisher = host.publisher {
            return publisher.watch(client: client.id, subscription: sub, since: since, reply: reply)
        }
        _ = server.setWatch(client: client.id, sub)
        return WireCoding.line(reply)
    }

    private func hunt(_ h: HuntRequest) throws -> String {
        var targets: [Target] = []
        for (i, s) in h.targets.enumerated() {
            do {
                targets.append(try TargetSpec.parse(s, index: i + 1, places: host.placeRecords))
            } catch {
                throw ProtocolError(.badField, command: "hunt", field: "targets[\(i)]", "target \(i + 1): \(error)")
            }
        }
        host.retarget(targets, tracking: .hunt)
        logger.info("hunting \(targets.count) target(s)")
        return WireCoding.line(TrackingReply(mode: "hunt", targets: targets.count))
    }

    private func roam(_ r: RoamRequest, user: String) throws -> String {
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
                            dropped: $0.dropped, gaps: $0.gaps, stalledS: $0.stalledSeconds)
        }
        let mayWrite = client.map(self.mayWrite) ?? true
        let nearest = Self.nearestFirst(e.targets)
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
            friends: e.friends.isEmpty ? nil : e.friends)
    }

    /// The IMPORT reply: a summary (a file with 100,000 bad rows would make a line larger than
    /// the client's queue), with the whole report offered as a download when rows were left
    /// out. The import is done by now: a download that cannot be staged (quota, disk) only
    /// leaves the details out.
    private func importReply(_ report: ImportReport, client: ClientInfo, user: String) -> String {
        var summary = report.summarised(maxIssues: Limits.reportIssues)
        if summary != report {
            summary.details = try? staging.export(client: client.id, user: user) { write in
                try write(WireCoding.encoder().encode(report))
            }.id
        }
        return WireCoding.line(ResultReply(.import, result: summary))
    }

    /// A page of the tracked targets, nearest first (`targets`): the full list STATUS cuts.
    func targetsPage(_ r: TargetsRequest) -> TargetsReply {
        let all = Self.nearestFirst(host.statusSnapshot().targets)
        let page = r.offset < all.count ? Array(all[r.offset..<min(all.count, r.offset + r.limit)]) : []
        return TargetsReply(offset: r.offset, total: all.count, targets: page)
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

    private func mayWrite(_ client: ClientInfo) -> Bool { authorisation.withLock { $0.isAuthorised(client) } }

    /// Root or the daemon's own user: may read every user's personal records.
    static func isAdministrator(_ client: ClientInfo) -> Bool { client.uid == 0 || client.uid == getuid() }

    /// The name a client's changes are recorded under (`#UID` for a uid with no passwd entry).
    static func user(_ client: ClientInfo) -> String { client.recordedName }

    static func error(_ error: any Error) -> String {
        let e = (error as? ProtocolError) ?? ProtocolError(.internal, command: nil, "\(error)")
        return WireCoding.line(ErrorReply(e))
    }

    static func who(_ c: ClientInfo) -> String {
        "uid \(c.uid)\(c.userName.map { " (\($0))" } ?? "")"
    }
}
