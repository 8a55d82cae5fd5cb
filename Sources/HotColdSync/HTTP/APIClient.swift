import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Speaks HTTP to the Big Things web API (see `api/openapi.yaml`): one request, one reply,
/// with a hard deadline on every request, and the API token kept safe.
///
/// **Token safety.** The token goes only to the API's own origin, over TLS:
/// - the base URL must be `https://`; `http://` is refused unless `allowHTTPLoopback` is set
///   *and* the host is a loopback address (the reference server in tests), see ``BaseURL``;
/// - a request path (which comes from stored outbox data) must stay under the base URL: no
///   scheme or host of its own, no `..`, no query or fragment (``resolve(_:)``);
/// - redirects are followed only within the base URL's origin (same scheme, host and port); a
///   redirect anywhere else is refused before it is requested (``TransportError/redirect(url:to:)``),
///   so the Authorization header, which URLSession would copy onto the new request, never leaves;
/// - reply bodies are capped (``APIRequest/maxResponseBytes``: 16 MiB for the catalogue, 1 MiB
///   otherwise), checked against Content-Length and again while the body arrives, so a hostile
///   or broken server cannot make the process allocate without bound.
///
/// Why FoundationNetworking's `URLSession` and not swift-server/async-http-client: the client
/// makes a handful of small requests per sync (one GET, one POST per queued item), so it needs
/// no connection pooling, streaming or NIO event loops; `URLSession` comes with the toolchain
/// (no new dependency), and its libcurl backend handles TLS, HTTP/1.1 and proxies from the
/// environment. Two Linux quirks are worked around here: every request gets a fresh connection
/// (`Connection: close`, see ``send(_:)``), and the deadline is ours, not URLSession's idle
/// timeout, run with callbacks (see ``Deadline``). So ``send(_:)`` never takes longer than
/// `timeout`: a hung server cannot hold a sync for longer than that.
///
/// ```swift
/// let client = try APIClient(baseURL: URL(string: "https://bigthings.example/api/")!, token: "s3cret", timeout: 20)
/// let reply = try await client.send(APIRequest(method: "GET", path: "bigthings", headers: ["If-None-Match": etag]))
/// ```
public final class APIClient: Sendable {
    public let baseURL: URL
    public let token: String?
    /// Seconds from sending a request to having the whole reply.
    public let timeout: Double
    private let session: URLSession
    private let delegate: SafeSessionDelegate

    /// Throws ``BaseURL/Problem`` for a base URL that would put the token at risk.
    public init(baseURL: URL, token: String? = nil, timeout: Double = 30,
                allowHTTPLoopback: Bool = false) throws(BaseURL.Problem) {
        let base = try BaseURL.check(baseURL, allowHTTPLoopback: allowHTTPLoopback)
        self.baseURL = base
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.timeout = timeout
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData   // 304s are ours to see
        config.urlCache = nil
        config.httpCookieStorage = nil
        config.httpMaximumConnectionsPerHost = 1
        delegate = SafeSessionDelegate(origin: BaseURL.origin(base))
        session = URLSession(configuration: config, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The absolute URL of a path relative to the base (`bigthings/submissions`), for messages.
    /// Requests go through ``resolve(_:)``, which also checks the path.
    public func url(_ path: String) -> URL {
        URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL
    }

    /// The absolute URL of a request path, or ``TransportError/unsafePath(path:reason:)`` when
    /// the path would leave the base URL (it comes from stored data: never trusted).
    public func resolve(_ path: String) throws(TransportError) -> URL {
        func refuse(_ reason: String) -> TransportError { .unsafePath(path: path, reason: reason) }
        guard !path.isEmpty, path.utf8.count <= 2048 else { throw refuse("empty or longer than 2048 bytes") }
        guard !path.hasPrefix("/") else { throw refuse("absolute paths are not allowed") }
        for ch in path.unicodeScalars where ch.value < 0x21 || ch.value == 0x7F || "\\?#".unicodeScalars.contains(ch) {
            throw refuse("it contains \(ch.value < 0x21 || ch.value == 0x7F ? "a control character or space" : "\"\(ch)\"")")
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = String(segment).removingPercentEncoding ?? String(segment)
            guard !segment.isEmpty else { throw refuse("it has an empty segment") }
            guard decoded != "." && decoded != ".." else { throw refuse("it has a \(decoded) segment") }
        }
        // "https:other.example/…" would be read as a URL of its own.
        if let first = path.split(separator: "/").first, first.contains(":") { throw refuse("it names a scheme") }
        guard let u = URL(string: path, relativeTo: baseURL)?.absoluteURL,
              BaseURL.origin(u) == BaseURL.origin(baseURL),
              u.absoluteString.hasPrefix(baseURL.absoluteString) else {
            throw refuse("it does not stay under \(baseURL.absoluteString)")
        }
        return u
    }

    /// Sends one request. Throws ``TransportError`` when no acceptable HTTP reply arrived in
    /// time (the server may or may not have processed it); any HTTP status is a reply, not an error.
    public func send(_ request: APIRequest) async throws(TransportError) -> APIResponse {
        let url = try resolve(request.path)
        var r = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        r.httpMethod = request.method
        r.setValue("application/json", forHTTPHeaderField: "Accept")
        // A fresh connection per request: with a reused keep-alive connection that the server
        // drops, FoundationNetworking (libcurl underneath) resends on its own and then spins
        // until our deadline instead of reporting either reply or error (seen with Swift 6.3
        // on Linux). A sync makes a handful of requests, so the extra handshakes cost little.
        r.setValue("close", forHTTPHeaderField: "Connection")
        if let body = request.body {
            r.httpBody = body
            r.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        for (k, v) in request.headers where k.lowercased() != "authorization" { r.setValue(v, forHTTPHeaderField: k) }
        if let token { r.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let session = self.session
        let delegate = self.delegate
        let urlRequest = r
        let cap = max(0, request.maxResponseBytes)
        let outcome: Result<SafeSessionDelegate.Reply, any Error> = await Deadline.run(seconds: timeout) { done in
            let task = session.dataTask(with: urlRequest)
            delegate.register(task, cap: cap, done: done)
            task.resume()
            return { task.cancel() }
        }
        switch outcome {
        case .success(let reply):
            let (data, http) = (reply.data, reply.response)
            var headers: [String: String] = [:]
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
            }
            return APIResponse(status: http.statusCode, headers: headers, body: data, url: url)
        case .failure(let error):
            if error is Deadline.Expired { throw .timeout(url: url, seconds: timeout) }
            if let e = error as? SafeSessionDelegate.Refusal {
                switch e {
                case .tooLarge(let limit): throw .tooLarge(url: url, limit: limit)
                case .redirect(let to): throw .redirect(url: url, to: to)
                case .notHTTP: throw .connection(url: url, reason: "the reply was not HTTP")
                }
            }
            if let u = error as? URLError, u.code == .timedOut { throw .timeout(url: url, seconds: timeout) }
            throw .connection(url: url, reason: TransportError.reason(error))
        }
    }
}

/// A request relative to the API's base URL.
public struct APIRequest: Sendable {
    /// The largest reply to the catalogue download (the whole list of Big Things).
    public static let catalogueLimit = 16 << 20
    /// The largest reply to anything else (a rating's or a submission's receipt).
    public static let defaultLimit = 1 << 20

    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data?
    /// Replies with a longer body are refused (``TransportError/tooLarge(url:limit:)``).
    public var maxResponseBytes: Int

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil,
                maxResponseBytes: Int = APIRequest.defaultLimit) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An HTTP reply; header names lower-cased.
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var url: URL

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The `{"error": message}` of an error reply, else a short description of the body.
    public var errorMessage: String {
        struct ErrorBody: Decodable { var error: String }
        if let m = try? JSONDecoder().decode(ErrorBody.self, from: body) {
            return String(m.error.prefix(500))
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status) with no message" : "HTTP \(status): \(text)"
    }
}

/// No acceptable HTTP reply: the server could not be reached, did not answer in time, or
/// answered with something the client refuses for the token's or the process's safety.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    case timeout(url: URL, seconds: Double)
    case connection(url: URL, reason: String)
    /// The reply's body was longer than the request's cap (nothing of it is kept).
    case tooLarge(url: URL, limit: Int)
    /// The server redirected outside the API's origin; the redirect was not followed.
    case redirect(url: URL, to: String)
    /// The request's path would leave the base URL; nothing was sent.
    case unsafePath(path: String, reason: String)

    public var description: String {
        switch self {
        case .timeout(let url, _): "no reply from \(url.absoluteString) \(reason)"
        case .connection(let url, let reason): "cannot reach \(url.absoluteString): \(reason)"
        case .tooLarge(let url, _), .redirect(let url, _): "\(url.absoluteString): \(reason)"
        case .unsafePath: "refused to send: \(reason)"
        }
    }

    /// What went wrong, without the URL.
    public var reason: String {
        switch self {
        case .timeout(_, let s): "no reply within \(s.formatted(.number.precision(.fractionLength(0...1)))) s"
        case .connection(_, let reason): reason
        case .tooLarge(_, let limit): "the reply is longer than the \(limit)-byte limit"
        case .redirect(_, let to): "refused a redirect to \(to) (outside the API's origin; the token stays home)"
        case .unsafePath(let path, let reason): "the outbox path \"\(path.prefix(200))\" is unsafe: \(reason)"
        }
    }

    static func reason(_ error: any Error) -> String {
        if let u = error as? URLError {
            switch u.code {
            case .cannotConnectToHost: return "connection refused"
            case .networkConnectionLost: return "the connection was lost"
            case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
            case .notConnectedToInternet: return "not connected to a network"
            case .badServerResponse: return "the server's reply was not valid HTTP"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
                 .serverCertificateNotYetValid, .secureConnectionFailed:
                return "the TLS connection failed (\(u.code.rawValue))"
            default: break
            }
        }
        return (error as NSError).localizedDescription
    }
}
