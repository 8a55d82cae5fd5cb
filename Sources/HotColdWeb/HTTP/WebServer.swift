#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import HummingbirdCore
import NIOCore
import Logging

/// hotcold-web's HTTP side: the page, the live stream, pairing and writes, over one Hummingbird
/// application. Built in-process by the tests, run by the `hotcold-web` executable.
///
/// ```swift
/// let server = try WebServer(config: config)
/// try await server.application().runService()
/// ```
public struct WebServer: Sendable {
    public let config: WebConfiguration
    public let store: TokenStore
    public let slots: LiveSlots
    public let connections: ConnectionGate
    let requests: RateLimiter
    let writes: RateLimiter
    let writer: DaemonWriter
    /// The daemon's writer rule, applied at each write to the user who paired the device.
    public let writers: WriterCheck
    /// The box's time zone (IANA name), which the page shows times in.
    public let timeZone: String
    /// Who at this machine's own browser could read the daemon's socket.
    let socketAccess: DaemonSocketAccess
    /// Photos on their way to the daemon: one per device, bounded, each kept moving.
    public let photoUploads: PhotoUploads

    public init(config: WebConfiguration, store: TokenStore, timeZone: String = BoxTimeZone.identifier(),
                photoLimits: PhotoUploads.Limits = PhotoUploads.Limits()) {
        self.config = config
        self.store = store
        self.timeZone = timeZone
        photoUploads = PhotoUploads(limits: photoLimits)
        slots = LiveSlots(limit: config.live.maxClients, perDevice: config.live.maxPerDevice)
        connections = ConnectionGate(maxConnections: config.access.maxConnections,
                                     maxUnpairedPerAddress: config.access.maxUnpairedPerAddress)
        requests = RateLimiter(rate: config.access.requestsPerSecond, burst: config.access.requestBurst)
        writes = RateLimiter(rate: config.access.writesPerSecond, burst: config.access.writeBurst)
        writer = DaemonWriter(socketPath: config.daemon.socket)
        socketAccess = DaemonSocketAccess(path: config.daemon.socket)
        writers = WriterCheck(daemonConfig: config.daemon.config,
                              rule: (try? WriterRule.load(daemonConfig: config.daemon.config)) ?? WriterRule(allowedUsers: [], allowedGroups: ["hotcold"]))
    }

    /// The address devices open: `listen.public_url`, else the listening address and port.
    public var baseURL: String {
        if !config.listen.publicURL.isEmpty { return config.listen.publicURL }
        let a = config.listen.address
        return "http://" + (a.contains(":") ? "[\(a)]" : a) + ":\(config.listen.port)"
    }

    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeaders<WebContext>(tileOrigin: TileURL.origin(of: config.page.tileURL)))
        router.add(middleware: HostCheck(config: config))
        router.add(middleware: RateLimit(limiter: requests))
        WebRoutes(server: self).add(to: router)
        var logger = Logger(label: "hotcold-web")
        logger.logLevel = .notice
        let gate = connections
        let store = store
        // The idle timeout also bounds a request's head: nothing of a request is decoded (so
        // nothing counts as activity) until its head is complete.
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGateHandler(gate: gate, isPaired: { store.device(token: $0) != nil })],
            idleTimeout: TimeAmount.milliseconds(Int64(config.access.idleTimeout * 1000)))
        return Application(
            router: router,
            server: .http1(configuration: http),
            // A deep accept queue: connections over the caps are accepted and closed at once, and
            // a phone's connection must not wait behind a stranger's burst for a SYN retry (1 s).
            configuration: .init(address: .hostname(config.listen.address, port: config.listen.port), serverName: nil,
                                 backlog: 4096),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Whether `caller` may write now: a paired device whose pairing user is a writer by the
    /// daemon's rule as it stands now (not as it stood when the device was paired).
    func mayWrite(_ caller: Caller) -> Bool {
        guard case .paired(let d) = caller else { return false }
        return writers.isWriter(uid: d.uid)
    }

    /// Who is asking: a paired device by its cookie; else, from this machine, the local user
    /// the kernel names for the connection (``ConnectionGateHandler`` puts the uid in a header
    /// of its own) if that user could read the daemon's socket; else a stranger. A local
    /// browser is never hotcold-web's own user by default: an unnamed one reads nothing.
    func caller(_ request: Request, _ context: WebContext) -> Caller {
        if let t = request.cookies[WebRoutes.cookieName]?.value, let d = store.device(token: t) { return .paired(d) }
        guard context.isLoopback, let text = request.headers[ConnectionGateHandler.localUserField], let uid = UInt32(text),
              socketAccess.mayOpen(uid: uid) else { return .stranger }
        return .local(uid: uid)
    }
}

/// Per-address request rate (paired devices and strangers alike); over it, 429. The page's own
/// files (the document, its style, its script's modules) are never counted: they are answered
/// from memory, a load is two dozen of them, and a page whose modules were refused could never
/// start nor say why (two screens from one address, or a few quick reloads, used to leave a page
/// stuck on "connecting…"). Everything that reaches the daemon is counted.
struct RateLimit: RouterMiddleware {
    typealias Context = WebContext
    let limiter: RateLimiter

    static func isPageFile(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let path = request.uri.path
        if path == "/" || path == "/app.css" { return true }
        return path.hasPrefix("/js/") && PageAssets.modules[String(path.dropFirst(4))] != nil
    }

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        if Self.isPageFile(request) { return try await next(request, context) }
        guard limiter.allow("addr:" + context.peerAddress) else {
            throw HTTPError(.tooManyRequests, message: "too many requests from this address; slow down")
        }
        return try await next(request, context)
    }
}
