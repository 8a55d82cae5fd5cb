import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// The route table: every command of the protocol and how it is answered.
///
/// ## Adding a store operation (a new `op` of `store`)
/// Every store request, the daemon's and `hotcold --db`'s alike, is answered by one
/// `StoreExecutor`, and every client command is written once against the request and reply
/// types (`StoreBackend`: the socket or the executor in process). So a new operation is:
/// 1. `Sources/HotColdProtocol/Requests/StoreRequest.swift`: the `Operation` case, its `name`,
///    its entry in `operations`, its fields read (`init(_:)`) and written (`encode(to:)`).
/// 2. `Sources/HotColdStore/Executor/StoreExecutor.swift`: one line in `change` from the
///    operation to the store's function and the reply's result.
/// 3. `Sources/hotcold/Store/<Name>Command.swift`: the command, calling `backend.store(_:as:)`.
/// 4. `Sources/hotcold/Store/StoreCommands.swift`: the command in `all`.
/// 5. `PROTOCOL.md`: a row of the `store` table (a test holds every command to it).
/// 6. `schema/request.schema.json`: the operation's fields (`SchemaTests` checks the examples).
/// Nothing here: the `store` entry below covers every operation. When the store has no
/// function for it yet, that function is the store's own work (a `Store+….swift` of
/// HotColdStore); `make man` then regenerates the committed `man/hotcold.1`.
///
/// ## Adding a command
/// 1. `HotColdProtocol`: a case in `Command` (its `cmd` name, and in `writes` if only writers
///    may send it), a request type (`RequestBody`: its fields read and checked with `Fields`,
///    written back with `FieldWriter`) and its case in `Request` (four one-line entries: the
///    case, `command`, `decode`, `encode`); a reply type if no existing one fits.
/// 2. Here: one entry in ``route(_:for:)`` — `.loop` for bounded memory-only work, `.work`
///    for anything that may wait, `.store` for the database. Authorisation (`Command.writes`),
///    write charging (`CommandClass`) and the thread are applied by `handle` for every entry.
///    A command answered from the database alone is the executor's instead: a case in
///    `StoreExecutor.reply`, and its name in the executor's `.store` line below.
/// 3. The caller: a `LineClient.call` in the client, or for a store command a function of
///    `StoreBackend`'s extension, which both the socket and `--db` use.
/// 4. PROTOCOL.md (a test holds every command to it) and `event.schema.json` for a new event.
/// The compiler finds every switch that needs the new case; `RouteTableTests` builds the
/// daemon in process and sends it each command.
extension DaemonCommands {
    func route(_ request: Request, for client: ClientInfo) -> CommandRoute {
        let user = Self.user(client)
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
        // The store: one executor for every store request, the same `hotcold --db` calls in process.
        case .store, .search, .place, .near, .visits, .observations, .outbox, .export, .import, .submit:
            return .store { try self.storeReply(request, $0, client: client) }
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

    /// A store request, answered by ``StoreExecutor`` with what only the daemon has (its
    /// staged files, its fix, its radar: ``DaemonStoreContext``); then what follows a change:
    /// the sync loop woken, a rating or note announced to the bridge.
    func storeReply(_ request: Request, _ executor: StoreExecutor, client: ClientInfo) throws -> String {
        let user = Self.user(client)
        let line = try executor.reply(to: request, user: user, seesEveryone: Self.isAdministrator(client),
                                      context: DaemonStoreContext(commands: self, client: client))
        if request.changesState { storeChanged() }
        if case .store(let r) = request { announceRecord(r, user: user) }
        return line
    }

    /// `hotcold-sync`'s ops (``OutboxSyncRPC``). A change also lets the QUEUED announcer count
    /// again, so an item queued after a delivery is announced.
    func sync(_ r: SyncRequest, _ store: StoreExecutor, client: ClientInfo) throws -> String {
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
