import HTTPTypes
import Hummingbird

/// Headers on every response: a strict Content-Security-Policy (only this origin's script,
/// style and connections; no inline code, no frames, no forms elsewhere), no MIME sniffing,
/// no referrer, no caching of live data.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    let policy: String

    init(tileOrigin: String?) {
        let img = ["'self'", "data:"] + (tileOrigin.map { [$0] } ?? [])
        policy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src \(img.joined(separator: " "))",
            "connect-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var r: Response
        do { r = try await next(request, context) } catch let e as HTTPError {
            var headers = e.headers
            headers[.contentType] = "text/plain; charset=utf-8"
            r = Response(status: e.status, headers: headers,
                         body: .init(byteBuffer: ByteBuffer(string: (e.body ?? e.status.reasonPhrase) + "\n")))
        }
        r.headers[.contentSecurityPolicy] = policy
        r.headers[.xContentTypeOptions] = "nosniff"
        r.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        r.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if r.headers[.cacheControl] == nil { r.headers[.cacheControl] = "no-store" }
        return r
    }
}
