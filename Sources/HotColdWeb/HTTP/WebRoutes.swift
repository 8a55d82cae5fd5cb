#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdUnix
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The routes: `/` and its assets (`/app.css`, the script's modules at `/js/NAME.js`), `/events`
/// (SSE), `/session`, `/pair`, `/api/command` (writes), `/api/read` (the reads the page needs: a
/// place's own note, rating and visits; the hunt list), `/api/submit-photo` (a new Big Thing with
/// its photo: WebRoutes+Photo.swift).
struct WebRoutes: Sendable {
    static let cookieName = "hc_token"
    let server: WebServer

    func add(to router: Router<WebContext>) {
        // The script's modules, each at /js/NAME.js (a route per module: any other name is not found).
        for (name, text) in PageAssets.modules {
            let module = StaticAsset(text, type: "text/javascript; charset=utf-8")
            router.get("/js/\(name)") { request, _ in module.response(to: request) }
        }
        let style = StaticAsset(PageAssets.style, type: "text/css; charset=utf-8")
        router.get("/app.css") { request, _ in style.response(to: request) }
        let html = StaticAsset(PageAssets.html, type: "text/html; charset=utf-8")
        router.get("/") { request, context in try page(request, context, html) }
        router.get("/session") { request, context in try session(request, context) }
        router.get("/pair") { request, _ in try pair(request) }
        router.get("/events") { request, context in try events(request, context) }
        router.post("/events/read") { request, context in streamRead(request, context) }
        router.post("/api/command") { request, context in try await command(request, context) }
        router.post("/api/read") { request, context in try await read(request, context) }
        router.post("/api/submit-photo") { request, context in try await submitPhoto(request, context) }
    }

    private func page(_ request: Request, _ context: WebContext, _ html: StaticAsset) throws -> Response {
        guard server.caller(request, context).mayRead else {
            return Response(status: .unauthorized, headers: [.contentType: "text/html; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: PageAssets.notPaired)))
        }
        return html.response(to: request)
    }

    func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? e.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    struct Session: Encodable {
        var access: String
        var writer: Bool
        var device: String?
        var user: String?
        var tileURL: String?
        /// The box's time zone (IANA name): the page shows every time in it, as `hotcold` does
        /// on the box, whatever zone the phone is set to.
        var timeZone: String
        enum CodingKeys: String, CodingKey { case access, writer, device, user, tileURL = "tile_url", timeZone = "time_zone" }
    }

    private func session(_ request: Request, _ context: WebContext) throws -> Response {
        let c = server.caller(request, context)
        let tile = server.config.page.tileURL.isEmpty ? nil : server.config.page.tileURL
        switch c {
        case .paired(let d): return json(.ok, Session(access: "paired", writer: server.mayWrite(c), device: d.name, user: d.user, tileURL: tile,
                                                             timeZone: server.timeZone))
        case .local(let uid): return json(.ok, Session(access: "local", writer: false, user: PeerCredentials(uid: uid, gid: 0, groups: []).userName,
                                                       tileURL: tile, timeZone: server.timeZone))
        case .stranger: throw HTTPError(.unauthorized, message: "not paired")
        }
    }

    /// The link from `hotcold web pair`: works once, within `access.link_minutes`. Opening it
    /// gives this browser the device's session token (fresh, in no URL) in a cookie (HttpOnly:
    /// no script can read it; SameSite=Lax: sent on the QR scanner's top-level navigation,
    /// never on another site's POST), then shows the page. No token is ever logged.
    private func pair(_ request: Request) throws -> Response {
        guard let t = request.uri.queryParameters.get("t"), let d = try? server.store.redeem(link: String(t)) else {
            throw HTTPError(.forbidden, message: "this pairing link is unknown, used already or expired (a link works once, for \(server.config.access.linkMinutes) minutes); run hotcold web pair again")
        }
        var r = Response(status: .seeOther, headers: [.location: "/"])
        // A relative lifetime (Max-Age), from the boot clock's count: no date either side's
        // wall clock could misread.
        let age = max(60, Int(d.remaining(at: BootClock.now())))
        r.setCookie(Cookie(name: Self.cookieName, value: d.token, maxAge: age, path: "/",
                           secure: server.config.listen.publicURL.hasPrefix("https://"), httpOnly: true, sameSite: .lax))
        return r
    }

    private func events(_ request: Request, _ context: WebContext) throws -> Response {
        let caller = server.caller(request, context)
        guard caller.mayRead else { throw HTTPError(.unauthorized, message: "not paired") }
        let since = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { UInt64($0.trimmingBlanks()) }
            ?? request.uri.queryParameters.get("since").flatMap { UInt64($0) }
        let slots = server.slots
        // A paired device is limited per pairing, a browser on this machine per local user.
        let device = Self.streamOwner(caller)
        switch slots.check(device: device) {
        case .full?:
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"],
                            message: "\(slots.limit) browsers are following already (live.max_clients)")
        case .deviceFull?:
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"],
                            message: "this device follows the live stream \(slots.perDevice) times already (live.max_per_device)")
        case nil: break
        }
        let live = server.config.live
        let socket = server.config.daemon.socket
        let channel = context.channel
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                // The slot and the daemon connection are taken only here, once the head is
                // written: a connection reset before that takes nothing. The slot goes back
                // when this body ends, whether it ends well or a write throws.
                guard case .success(let slot) = slots.acquire(device: device, owner: device ?? "") else {
                    // Taken meanwhile by another browser: tell this one to come back later.
                    try await writer.write(ByteBuffer(string: SSEFrame.retry(milliseconds: 5000).text))
                    try await writer.finish(nil)
                    return
                }
                defer { slot.release() }
                let feed = DaemonFeed(socketPath: socket, since: since, statusInterval: live.statusInterval,
                                      queue: live.clientQueue, onDrop: { slots.countDropped() })
                try feed.start()
                defer { feed.stop() }
                // Bytes in flight bounded, and a stream that stops draining, or that the page
                // stops saying it reads, cut within seconds (StreamDrain says why both).
                let drain = StreamDrain(channel: channel, sendBuffer: live.streamSendBuffer, stallSeconds: live.stallSeconds,
                                        readSeconds: live.readSeconds, readAt: { slots.readAt(stream: slot.id) }) { why in
                    slots.countCut(why)
                    feed.stop()
                }
                defer { drain.stop() }
                try await writer.write(ByteBuffer(string: SSEFrame.state(name: "stream", data: StreamHello(id: slot.id, readS: live.readSeconds).json).text))
                // A stream never ends by itself: on SIGTERM end it, so the server's graceful
                // shutdown does not wait for it (the browser reconnects with Last-Event-ID).
                try await withGracefulShutdownHandler {
                    for await f in feed.frames { try await writer.write(ByteBuffer(string: f.text)) }
                } onGracefulShutdown: {
                    feed.stop()
                }
                try await writer.finish(nil)
            })
    }

    /// Who holds a live stream, for the slots per device and for saying it reads: a paired
    /// device by its pairing, a browser on this machine by its local user.
    static func streamOwner(_ caller: Caller) -> String? {
        switch caller {
        case .paired(let d): "device:" + d.token
        case .local(let uid): "local:\(uid)"
        case .stranger: nil
        }
    }

    /// `POST /events/read?stream=ID`: the page has read its live stream (``StreamDrain``). 204,
    /// or 404 when no such stream is open for this caller (it was cut: the page reconnects).
    private func streamRead(_ request: Request, _ context: WebContext) -> Response {
        guard let owner = Self.streamOwner(server.caller(request, context)),
              let id = request.uri.queryParameters.get("stream"), id.utf8.count == 43,
              server.slots.read(stream: String(id), owner: owner) else {
            return Response(status: .notFound)
        }
        return Response(status: .noContent)
    }

    /// A read from the page (anyone who may see the page): the daemon's reply line itself, or a
    /// refusal as an ``Outcome``.
    private func read(_ request: Request, _ context: WebContext) async throws -> Response {
        let caller = server.caller(request, context)
        guard caller.mayRead else {
            return json(.unauthorized, Outcome(ok: false, code: "not_allowed", message: "this device is not paired"))
        }
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return json(.unsupportedMediaType, Outcome(ok: false, code: "bad_type", message: "send application/json"))
        }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        switch await server.writer.send(String(buffer: body), kind: .read, actingFor: caller.actsFor) {
        case .done(let line):
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: line)))
        case .refused(let code, let message):
            return json(code == "not_found" ? .notFound : .unprocessableContent, Outcome(ok: false, code: code, message: message))
        case .invalid(let message): return json(.badRequest, Outcome(ok: false, code: "bad_request", message: message))
        case .unreachable(let message): return json(.badGateway, Outcome(ok: false, code: "unreachable", message: message))
        }
    }

    struct Outcome: Encodable {
        var ok: Bool
        var code: String?
        var message: String?
        var reply: String?
    }

    /// A write from the page: a paired writer's device, from this origin (CSRF), as JSON (a
    /// cross-site form cannot send that without a preflight we never grant), within its rate.
    private func command(_ request: Request, _ context: WebContext) async throws -> Response {
        let caller = server.caller(request, context)
        guard server.mayWrite(caller) else {
            let why = if case .paired = caller { "this device was paired by a user who may not write to the daemon" } else {
                "this device is not paired: writes need a device paired by a writer (hotcold web pair)"
            }
            return json(.forbidden, Outcome(ok: false, code: "not_allowed", message: why))
        }
        guard let origin = request.headers[.origin], let host = request.head.authority,
              origin == "http://\(host)" || origin == "https://\(host)" else {
            return json(.forbidden, Outcome(ok: false, code: "bad_origin", message: "the request's Origin is not this page's"))
        }
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return json(.unsupportedMediaType, Outcome(ok: false, code: "bad_type", message: "send application/json"))
        }
        guard server.writes.allow(caller.key(address: context.peerAddress)) else {
            return json(.tooManyRequests, Outcome(ok: false, code: "rate", message: "too many writes from this device; wait a moment"))
        }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        switch await server.writer.send(String(buffer: body), actingFor: caller.actsFor) {
        case .done(let line): return json(.ok, Outcome(ok: true, reply: line))
        case .refused(let code, let message): return json(.unprocessableContent, Outcome(ok: false, code: code, message: message))
        case .invalid(let message): return json(.badRequest, Outcome(ok: false, code: "bad_request", message: message))
        case .unreachable(let message): return json(.badGateway, Outcome(ok: false, code: "unreachable", message: message))
        }
    }
}
