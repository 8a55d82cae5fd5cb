import Foundation
import HotColdCore
import Logging
import Synchronization
import HotColdStore

/// The socket protocol's commands (see PROTOCOL.md): `watch`, `status`, `poll`, `hunt`, `roam`,
/// `version`. Each line is a JSON object with a `"cmd"` field; every reply is one or more JSON
/// lines, and every mistake an `ERROR` naming it. Nothing a client sends can stop the daemon.
public final class DaemonCommands: SocketCommandHandler {
    let host: EngineHost
    let server: SocketServer
    let authorisation: Mutex<PeerAuthorisation>
    let status: @Sendable () -> StatusExtras
    let logger: Logger
    let store: StoreRPC?
    /// Called after a change through `store` (a rating to send: the sync loop goes at once).
    let storeChanged: @Sendable () -> Void
    // Slow work (store queries for hunt/roam) runs here, off the socket's loop thread.
    private let work = DispatchQueue(label: "hotcold.commands")

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

    public init(host: EngineHost, server: SocketServer, authorisation: PeerAuthorisation,
                store: Store? = nil, storeChanged: @escaping @Sendable () -> Void = {},
                logger: Logger, status: @escaping @Sendable () -> StatusExtras) {
        self.store = store.map(StoreRPC.init)
        self.storeChanged = storeChanged
        self.host = host
        self.server = server
        self.authorisation = Mutex(authorisation)
        self.status = status
        self.logger = logger
    }

    public func setAuthorisation(_ a: PeerAuthorisation) { authorisation.withLock { $0 = a } }

    public func greeting(for client: ClientInfo) -> [String] { [ProtocolVersion.greeting] }

    public func handle(line: String, from client: ClientInfo) -> [String] {
        let request: Request
        switch Request.parse(line) {
        case .failure(let e): return [Self.error(e.message)]
        case .success(let r): request = r
        }
        switch request.cmd {
        case "version": return [ProtocolVersion.greeting]
        case "watch": return watch(request, client).map { [$0] } ?? []
        case "status": return [statusLine()]
        case "poll":
            let lines = host.poll()
            var end = JSONLine(class: "POLL")
            end.add("count", lines.count)
            end.addRaw("at", json: VisitsStatus.array(host.visits.at))
            return lines + [end.text]
        case "store":
            guard authorisation.withLock({ $0.isAuthorised(client) }) else {
                return [Self.error("store: not allowed for \(Self.who(client)); changes need a user in allowed_users or a group in allowed_groups (config [socket])")]
            }
            guard let store else { return [Self.error("store: no database is open in the daemon")] }
            let id = client.id
            let user = client.userName ?? "uid\(client.uid)"
            work.async { [self] in
                let reply: String
                do {
                    reply = try store.run(request, user: user)
                    storeChanged()
                } catch let e as StoreRPC.Failure {
                    reply = Self.error(e.message)
                } catch let e as Request.Problem {
                    reply = Self.error(e.message)
                } catch {
                    reply = Self.error("store \((try? request.string("op")) ?? ""): \(error)")
                }
                _ = server.send(to: id, line: reply)
            }
            return []
        case "hunt", "roam":
            guard authorisation.withLock({ $0.isAuthorised(client) }) else {
                return [Self.error("\(request.cmd): not allowed for \(Self.who(client)); changing what is tracked needs a user in allowed_users or a group in allowed_groups (config [socket])")]
            }
            let id = client.id
            let user = client.userName ?? "uid\(client.uid)"
            work.async { [self] in
                let reply = request.cmd == "hunt" ? hunt(request) : roam(request, user: user)
                _ = server.send(to: id, line: reply)
            }
            return []
        default:
            return [Self.error("unknown command \"\(request.cmd)\" (known: watch, status, poll, hunt, roam, store, version)")]
        }
    }

    // MARK: - Commands

    private func watch(_ r: Request, _ client: ClientInfo) -> String? {
        let enable: Bool
        do { enable = try r.bool("enable") ?? true } catch { return Self.error(error.message) }
        var classes: Set<String>? = nil
        var targets: Set<String>? = nil
        var since: Int? = nil
        do {
            if let c = try r.strings("classes") {
                let known: Set<String> = ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"]
                let upper = Set(c.map { $0.uppercased() })
                if let bad = upper.subtracting(known).sorted().first {
                    return Self.error("watch: unknown class \"\(bad)\" (known: \(known.sorted().joined(separator: ", ")))")
                }
                classes = upper
            }
            if let t = try r.strings("targets") { targets = Set(t) }
            if let n = try r.number("since") {
                guard let v = EventPublisher.sinceValue(n) else { return Self.error(EventPublisher.sinceProblem) }
                since = v
            }
        } catch {
            return Self.error(error.message)
        }
        host.publisher?.cancelCatchUp(client: client.id)
        let subscription = Subscription(watching: enable, classes: classes, targets: targets)
        var o = JSONLine(class: "WATCH")
        o.add("enable", enable)
        if let classes { o.addRaw("classes", json: Self.array(classes.sorted())) }
        if let targets { o.addRaw("targets", json: Self.array(targets.sorted())) }
        // With "since": the log's events first, then live (the reply comes from the replay).
        if enable, let since, let publisher = host.publisher {
            return publisher.watch(client: client.id, subscription: subscription, since: since, reply: o)
        }
        _ = server.setWatch(client: client.id, subscription)
        return o.text
    }

    private func hunt(_ r: Request) -> String {
        do {
            guard let specs = try r.strings("targets"), !specs.isEmpty else {
                return Self.error("hunt: give \"targets\": a non-empty array of \"LAT,LON[,NAME]\" or place ids")
            }
            var targets: [Target] = []
            for (i, s) in specs.enumerated() {
                do {
                    targets.append(try TargetSpec.parse(s, index: i + 1, resolver: host.targetResolver))
                } catch {
                    return Self.error("hunt: target \(i + 1): \(error)")
                }
            }
            host.retarget(targets, mode: .hunt, description: .init(mode: "hunt", radius: nil, filter: nil))
            logger.info("hunting \(targets.count) target(s)")
            return Self.tracking(mode: "hunt", radius: nil, count: targets.count)
        } catch {
            return Self.error(error.message)
        }
    }

    private func roam(_ r: Request, user: String) -> String {
        do {
            guard let resolver = host.targetResolver else {
                return Self.error("roam: no store is open, so there are no places to roam among")
            }
            let radius = try r.distance("radius") ?? 10_000
            guard radius > 0 else { return Self.error("roam: radius must be positive") }
            let filter = RoamFilter(kinds: try r.strings("kinds") ?? ["bigthing"],
                                    favouritesOnly: try r.bool("favourites") ?? false,
                                    unseenOnly: try r.bool("unseen") ?? false, user: user)
            let targets: [Target]
            do {
                targets = try resolver.roamTargets(filter)
            } catch {
                return Self.error("roam: cannot load places: \(error)")
            }
            var desc = filter.kinds.joined(separator: ",")
            if filter.favouritesOnly { desc += " favourites" }
            if filter.unseenOnly { desc += " unseen" }
            host.retarget(targets, mode: .roam(radius: radius),
                          description: .init(mode: "roam", radius: radius, filter: desc))
            logger.info("roaming among \(targets.count) places within \(Int(radius)) m")
            return Self.tracking(mode: "roam", radius: radius, count: targets.count)
        } catch {
            return Self.error(error.message)
        }
    }

    func statusLine() -> String {
        var o = JSONLine(class: "STATUS")
        o.add("time", time: Date())
        o.add("release", ProtocolVersion.release)
        o.add("uptime_s", host.uptimeSeconds, decimals: 0)
        host.status(into: &o)
        let c = server.counters
        var s = JSONLine.object()
        s.add("path", server.path ?? "")
        s.add("clients", c.clients)
        s.add("clients_total", c.accepted)
        s.add("dropped", c.dropped)
        s.add("lines_in", c.linesIn)
        s.add("lines_out", c.linesOut)
        o.addRaw("socket", json: s.text)
        let extras = status()
        if let l = extras.logStatus {
            var j = JSONLine.object()
            j.add("path", l.path)
            j.add("writing", l.isWriting)
            if let e = l.error { j.add("error", e) }
            j.add("lines_written", l.linesWritten)
            j.add("lines_lost", l.linesLost)
            o.addRaw("log", json: j.text)
        }
        if let p = extras.configPath { o.add("config", p) }
        if let d = extras.database { o.add("database", d) }
        return o.text
    }

    // MARK: - Helpers

    static func error(_ message: String) -> String {
        var o = JSONLine(class: "ERROR")
        o.add("message", message)
        return o.text
    }

    static func tracking(mode: String, radius: Double?, count: Int) -> String {
        var o = JSONLine(class: "TRACKING")
        o.add("mode", mode)
        if let radius { o.add("radius_m", radius, decimals: 0) }
        o.add("targets", count)
        return o.text
    }

    static func array(_ items: [String]) -> String {
        "[" + items.map(JSONLine.quoted).joined(separator: ",") + "]"
    }

    static func who(_ c: ClientInfo) -> String {
        "uid \(c.uid)\(c.userName.map { " (\($0))" } ?? "")"
    }
}
