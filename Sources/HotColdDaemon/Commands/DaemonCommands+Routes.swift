import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// The route table: every command of the protocol and how it is answered.
///
/// ## Adding a command
/// 1. `HotColdProtocol`: a case in `Command` (its `cmd` name, and in `writes` if only writers
///    may send it), a request type (`RequestBody`: its fields read and checked with `Fields`,
///    written back with `FieldWriter`) and its case in `Request` (four one-line entries: the
///    case, `command`, `decode`, `encode`); a reply type if no existing one fits.
/// 2. Here: one entry in ``route(_:for:)`` — `.loop` for bounded memory-only work, `.work`
///    for anything that may wait, `.store` for the database. Authorisation (`Command.writes`),
///    write charging (`CommandClass`) and the thread are applied by `handle` for every entry.
/// 3. The caller: a `LineClient.call` in the client (`DaemonStoreBackend` for a store command).
/// 4. PROTOCOL.md (a test holds every command to it) and `event.schema.json` for a new event.
/// The compiler finds every switch that needs the new case; `RouteTableTests` builds the
/// daemon in process and sends it each command.
extension DaemonCommands {
    func route(_ request: Request, for client: ClientInfo) -> CommandRoute {
        let user = Self.user(client)
        // Personal records: a user's own, everyone's for the daemon's administrator.
        let owner = Self.isAdministrator(client) ? nil : user
        switch request {
        // The session: answered on the loop from memory.
        case .version: return .loop { [ProtocolVersion.greeting] }
        case .status: return .loop { [WireCoding.line(self.statusReply(for: client))] }
        case .targets(let t): return .loop { [WireCoding.line(self.targetsPage(t))] }
        case .poll: return .loop { self.pollLines() }
        case .watch(let w): return .loop { self.watch(w, client).map { [$0] } ?? [] }
        case .report(let r): return .loop { [try self.report(r, client)] }
        case .friendFix(let f): return .loop { [try self.friendFix(f)] }
        // Files in and out: staged in private files, bounded per user.
        case .upload(let u): return .loop { [WireCoding.line(try self.staging.begin(u, client: client.id, user: user))] }
        case .chunk(let c): return .loop { [WireCoding.line(try self.staging.append(c, client: client.id))] }
        case .download(let d): return .loop { [WireCoding.line(try self.staging.read(d, client: client.id))] }
        // Tracking: may wait for the engine's lock and the places' table.
        case .hunt(let h): return .work { try self.hunt(h, user: user) }
        case .roam(let r): return .work { try self.roam(r, user: user) }
        // The store.
        case .store(let r): return .store { try self.change(r, $0, user: user) }
        case .search(let r): return .store { try $0.search(r, user: user) }
        case .place(let r): return .store { try $0.place(r, user: user) }
        case .near(let r): return .store { try self.near(r, $0) }
        case .visits: return .store { try $0.visits(user: user) }
        case .observations: return .store { try $0.observations(user: owner) }
        case .outbox: return .store { try $0.outbox(user: owner) }
        case .export(let r): return .store { try self.export(r, $0, client: client) }
        case .import(let r): return .store { try self.importUpload(r, $0, client: client) }
        case .submit(let r): return .store { try self.submit(r, $0, client: client) }
        case .sync(let r): return .store { try self.sync(r, $0, client: client) }
        // Friends.
        case .follow(let f): return .store { try self.follow(f, $0.store, user: user) }
        case .following(let f): return .store { try self.following(f, $0.store, user: user) }
        case .feedItem(let r): return .store { try self.feedItem(r, $0.store) }
        case .feed(let r): return .store { try self.feed(r, $0.store, user: user) }
        case .like(let r): return .store { try self.like(r, $0.store, user: user) }
        case .likeReceived(let r): return .store { try self.likeReceived(r, $0.store) }
        // A proxy's connection becomes a user's: the account is looked up off the loop.
        case .actFor(let a): return .work { try self.actFor(a, client) }
        }
    }

    // MARK: - Handlers that do more than call one function

    func pollLines() -> [String] {
        let lines = host.poll()
        return lines + [WireCoding.line(PollReply(count: lines.count, at: host.visits.at))]
    }

    func report(_ r: ReportRequest, _ client: ClientInfo) throws -> String {
        try services.record(r, from: client.id)
        noteOwnDevice(r.device)
        return WireCoding.line(ReportReply(service: r.service))
    }

    func actFor(_ a: ActForRequest, _ client: ClientInfo) throws -> String {
        guard client.via == nil else {
            throw ProtocolError(.notAllowed, command: "act_for", "this connection already acts for \(client.recordedName); open a new one")
        }
        guard authorisation.withLock({ $0.mayActForOthers(client) }) else {
            throw ProtocolError(.notAllowed, command: "act_for",
                "not allowed for \(Self.who(client)): only users in proxies (config [socket]) may act for another user")
        }
        guard let account = ActingClients.account(a.uid, via: client) else {
            throw ProtocolError(.notFound, command: "act_for", field: "uid", "no user on this box has uid \(a.uid)")
        }
        acting.act(client, as: account)
        logger.debug("socket: \(client) acts for \(account.recordedName)")
        return WireCoding.line(ActingReply(uid: account.uid, user: account.recordedName, writer: mayWrite(account)))
    }

    func change(_ r: StoreRequest, _ store: StoreRPC, user: String) throws -> String {
        let line = try store.change(r, user: user)
        storeChanged()
        announceRecord(r, user: user)
        return line
    }

    func near(_ r: NearRequest, _ store: StoreRPC) throws -> String {
        guard let origin = r.at ?? host.lastFixCoordinate else {
            throw ProtocolError(.badField, command: "near", field: "lat", "missing, and the daemon has no fix yet")
        }
        return try store.near(r, from: origin, friends: host.nearbyFriends())
    }

    /// Written a page at a time to a staged file, read back by `download`.
    func export(_ r: ExportRequest, _ store: StoreRPC, client: ClientInfo) throws -> String {
        let user = Self.user(client)
        let staged = try staging.export(client: client.id, user: user) { write in
            try store.export(r, user: user, to: write)
        }
        return WireCoding.line(ExportReply(id: staged.id, format: r.format, size: staged.size))
    }

    func importUpload(_ r: ImportRequest, _ store: StoreRPC, client: ClientInfo) throws -> String {
        let data = try staging.take(r.upload, purpose: .import, client: client.id, command: "import")
        let report = try store.importData(data, r, user: Self.user(client))
        storeChanged()
        return importReply(report, client: client, user: Self.user(client))
    }

    func submit(_ r: SubmitRequest, _ store: StoreRPC, client: ClientInfo) throws -> String {
        let photo = try r.photo.map { p throws(ProtocolError) in
            try staging.take(p.upload, purpose: .photo, client: client.id, command: "submit")
        }
        let line = try store.submit(r, photo: photo, user: Self.user(client))
        storeChanged()
        return line
    }

    /// `hotcold-sync`'s ops (``OutboxSyncRPC``). A change also lets the QUEUED announcer count
    /// again, so an item queued after a delivery is announced.
    func sync(_ r: SyncRequest, _ store: StoreRPC, client: ClientInfo) throws -> String {
        let line = try OutboxSyncRPC(store: store.store).run(r.op, upload: {
            guard case .catalogue(let upload, _, _) = r.op else { return Data() }
            return try staging.take(upload, purpose: .catalogue, client: client.id, command: "sync")
        }, user: Self.user(client), details: { report in
            // The commit is done: a download that cannot be staged only leaves the details out.
            try? self.staging.export(client: client.id, user: Self.user(client)) { write in
                try write(WireCoding.encoder().encode(report))
            }.id
        })
        if r.op.changes { storeChanged() }
        return line
    }
}
