import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore
import HotColdSyncProtocol
import Logging
import Synchronization

/// Puts the `sync` command (for `hotcold-sync`, see ``OutboxSyncCommands``) in front of the
/// daemon's other commands, which it passes on untouched.
///
/// Only the daemon's own user, root and authorised writers (`[socket] allowed_users` /
/// `allowed_groups`) may use it: it changes what the outbox says was delivered. Each request
/// is decoded and validated once here; the work runs on a queue of its own, off the socket's
/// loop, and the reply is sent when it is done (a client waits for each reply before the
/// next request).
///
/// ```swift
/// let router = SyncCommandRouter(inner: commands, server: server, store: store, announcer: announcer,
///                                authorisation: policy, logger: logger)
/// try server.start(handler: router)
/// ```
public final class SyncCommandRouter: SocketCommandHandler {
    let inner: any SocketCommandHandler
    let server: SocketServer
    let commands: OutboxSyncCommands?
    let authorisation: Mutex<PeerAuthorisation>
    let logger: Logger
    /// Whether the path still names the database file the daemon has open (nil: no store).
    let databaseWatch: DatabaseFileWatch?
    private let work = DispatchQueue(label: "hotcold.sync-commands")

    init(inner: any SocketCommandHandler, server: SocketServer, store: Store?, announcer: OutboxAnnouncer?,
         authorisation: PeerAuthorisation, databaseWatch: DatabaseFileWatch? = nil, staging: UploadStaging? = nil,
         logger: Logger) {
        self.inner = inner
        self.databaseWatch = databaseWatch
        self.server = server
        if let store, let announcer {
            commands = OutboxSyncCommands(store: store, announcer: announcer, staging: staging)
        } else {
            commands = nil
        }
        self.authorisation = Mutex(authorisation)
        self.logger = logger
    }

    public func setAuthorisation(_ a: PeerAuthorisation) { authorisation.withLock { $0 = a } }

    public func greeting(for client: ClientInfo) -> [String] { inner.greeting(for: client) }

    public func disconnected(_ client: ClientInfo, reason: String) {
        commands?.uploads.discard(client: client.id)
        inner.disconnected(client, reason: reason)
    }

    public func handle(line: String, from client: ClientInfo) -> [String] {
        // Cheap test first: most lines are other commands.
        guard line.contains("\"sync\"") else { return inner.handle(line: line, from: client) }
        let request: SyncRequest
        switch Self.decode(line) {
        case .other: return inner.handle(line: line, from: client)
        case .invalid(let message): return [Self.error(.badField, message)]
        case .sync(let r): request = r
        }
        guard authorisation.withLock({ $0.isAuthorised(client) }) else {
            return [Self.error(.notAllowed, "sync: not allowed for uid \(client.uid)\(client.userName.map { " (\($0))" } ?? ""); the outbox is for the daemon's user and writers in allowed_users or allowed_groups (config [socket])")]
        }
        guard let commands else { return [Self.error(.internal, "sync: no database is open in the daemon")] }
        // A delivery recorded in a deleted database file would be lost, and sent again later.
        if Self.writes(request.op), let problem = databaseWatch?.check() {
            return [Self.error(.internal, "sync \(request.op.rawValue): \(problem)")]
        }
        let id = client.id
        work.async { [server, logger] in
            let reply: String
            do {
                reply = try commands.run(request, client: client)
            } catch let e as SyncProtocolError {
                reply = Self.error(e.code, e.message)
            } catch {
                logger.warning("sync \(request.op.rawValue) from \(client): \(error)")
                reply = Self.error(Store.isBusy(error) ? .busy : .internal, "sync \(request.op.rawValue): \(error)")
            }
            _ = server.send(to: id, line: reply)
        }
        return []
    }

    /// Whether an op changes the database.
    static func writes(_ op: SyncRequest.Op) -> Bool {
        switch op {
        case .begin, .delivered, .failed, .retry, .catalogueCommit: true
        case .etag, .next, .payload, .item, .pending, .catalogueBegin, .catalogueChunk: false
        }
    }

    enum Decoded {
        case other
        case invalid(String)
        case sync(SyncRequest)
    }

    /// A `sync` request, validated; `.other` for every other command.
    static func decode(_ line: String) -> Decoded {
        struct Head: Decodable { var cmd: String? }
        let data = Data(line.utf8)
        guard let head = try? JSONDecoder().decode(Head.self, from: data), head.cmd?.lowercased() == "sync" else { return .other }
        let r: SyncRequest
        do {
            r = try SyncWire.decoder().decode(SyncRequest.self, from: data)
        } catch let DecodingError.typeMismatch(_, c), let DecodingError.valueNotFound(_, c), let DecodingError.dataCorrupted(c) {
            let field = c.codingPath.map(\.stringValue).joined(separator: ".")
            return .invalid("sync: \(field.isEmpty ? "the request" : "\"\(field)\"") is not valid: \(c.debugDescription)")
        } catch DecodingError.keyNotFound(let k, _) {
            return .invalid("sync: \"\(k.stringValue)\" is required (ops: \(SyncRequest.Op.allCases.map(\.rawValue).joined(separator: ", ")))")
        } catch {
            return .invalid("sync: not a valid request: \(error)")
        }
        do { try r.validate() } catch { return .invalid(error.message) }
        return .sync(r)
    }

    /// An `ERROR` line as every other command's: with its code, so hotcold-sync can tell a
    /// refusal from a fault without reading the message.
    static func error(_ code: ErrorCode, _ message: String) -> String {
        WireCoding.line(ErrorReply(ProtocolError(code: code, command: "sync", field: nil, message: message)))
    }
}
