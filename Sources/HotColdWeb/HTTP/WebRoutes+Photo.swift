#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import HotColdProtocol
import NIOCore
import Synchronization

/// One photo on its way to the daemon at a time, whoever sends it: a photo is up to 10 MiB held
/// in memory (hotcold-web's unit has `MemoryMax=96M`), so a second waits its turn (503).
private let photoInFlight = Mutex(false)

extension WebRoutes {
    /// `POST /api/submit-photo?submit=JSON&filename=NAME` with the photo as the body (its type
    /// `image/jpeg`, `image/png` or `image/webp`): the page's `submit` request (without a photo)
    /// and the photo, forwarded as the daemon's `upload`, `chunk`s and `submit` on one
    /// connection. The same gate as `/api/command`: a writer's paired device, this page's
    /// Origin, its write rate.
    func submitPhoto(_ request: Request, _ context: WebContext) async throws -> Response {
        let caller = server.caller(request, context)
        guard server.mayWrite(caller) else {
            return json(.forbidden, Outcome(ok: false, code: "not_allowed", message: "this device may not write: it was not paired by a writer"))
        }
        guard let origin = request.headers[.origin], let host = request.head.authority,
              origin == "http://\(host)" || origin == "https://\(host)" else {
            return json(.forbidden, Outcome(ok: false, code: "bad_origin", message: "the request's Origin is not this page's"))
        }
        let type = (request.headers[.contentType] ?? "").split(separator: ";").first.map { $0.trimmingBlanks().lowercased() } ?? ""
        guard DaemonWriter.photoTypes.contains(type) else {
            return json(.unsupportedMediaType, Outcome(ok: false, code: "bad_type", message: "send the photo as image/jpeg, image/png or image/webp"))
        }
        guard server.writes.allow(caller.key(address: context.peerAddress)) else {
            return json(.tooManyRequests, Outcome(ok: false, code: "rate", message: "too many writes from this device; wait a moment"))
        }
        guard let submit = request.uri.queryParameters.get("submit").map({ String($0) }) else {
            return json(.badRequest, Outcome(ok: false, code: "bad_request", message: "the submit request is missing (?submit=)"))
        }
        // The name the catalogue keeps for the file: the phone's, bounded, one line.
        let given = request.uri.queryParameters.get("filename").map({ String($0) }) ?? ""
        let filename = given.isEmpty || given.count > Limits.nameLength || given.contains(where: { $0.isNewline }) ? "photo" : given
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Limits.photoBytes {
            return json(.contentTooLarge, Outcome(ok: false, code: "too_large", message: "a photo holds at most \(Limits.photoBytes >> 20) MiB"))
        }
        let taken = photoInFlight.withLock { (busy: inout Bool) -> Bool in
            if busy { return false }
            busy = true
            return true
        }
        guard taken else {
            return json(.serviceUnavailable, Outcome(ok: false, code: "busy", message: "another photo is on its way to the box; try again in a moment"))
        }
        defer { photoInFlight.withLock { $0 = false } }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: Limits.photoBytes) } catch {
            return json(.contentTooLarge, Outcome(ok: false, code: "too_large", message: "a photo holds at most \(Limits.photoBytes >> 20) MiB"))
        }
        switch await server.writer.submit(submit, photo: Data(buffer: body), filename: filename, contentType: type, actingFor: caller.actsFor) {
        case .done(let line): return json(.ok, Outcome(ok: true, reply: line))
        case .refused(let code, let message): return json(.unprocessableContent, Outcome(ok: false, code: code, message: message))
        case .invalid(let message): return json(.badRequest, Outcome(ok: false, code: "bad_request", message: message))
        case .unreachable(let message): return json(.badGateway, Outcome(ok: false, code: "unreachable", message: message))
        }
    }
}
