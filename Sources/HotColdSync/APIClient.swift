import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Speaks HTTP to the Big Things web API (see `api/openapi.yaml`): one request, one reply,
/// with a hard deadline on every request.
///
/// Why FoundationNetworking's `URLSession` and not swift-server/async-http-client: the client
/// makes a handful of small requests per sync (one GET, one POST per queued item), so it needs
/// no connection pooling, streaming or NIO event loops; `URLSession` comes with the toolchain
/// (no new dependency, no 2.5–4.5 minute extra build on every CI run), and its libcurl backend
/// handles TLS, HTTP/1.1 and proxies from the environment. Two Linux quirks are worked around
/// here: every request gets a fresh connection (`Connection: close`, see ``send(_:)``), and
/// the deadline is ours, not URLSession's idle timeout, run with the completion-handler API
/// (see ``Deadline``). So ``send(_:)`` never takes longer than `timeout`: a hung server cannot
/// hold a sync, or the daemon's sync task, for longer than that.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://bigthings.example/api/")!, token: "s3cret", timeout: 20)
/// let reply = try await client.send(APIRequest(method: "GET", path: "bigthings", headers: ["If-None-Match": etag]))
/// ```
public final class APIClient: Sendable {
    public let baseURL: URL
    public let token: String?
    /// Seconds from sending a request to having the whole reply.
    public let timeout: Double
    private let session: URLSession

    public init(baseURL: URL, token: String? = nil, timeout: Double = 30) {
        // A base URL without a trailing slash would lose its last segment in URL(string:relativeTo:).
        let text = baseURL.absoluteString
        self.baseURL = text.hasSuffix("/") ? baseURL : URL(string: text + "/")!
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.timeout = timeout
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData   // 304s are ours to see
        config.urlCache = nil
        config.httpCookieStorage = nil
        config.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: config)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The absolute URL of a path relative to the base (`bigthings/submissions`).
    public func url(_ path: String) -> URL {
        URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
    }

    /// Sends one request. Throws ``TransportError`` when no HTTP reply arrived in time (the
    /// server may or may not have processed it); any HTTP status is a reply, not an error.
    public func send(_ request: APIRequest) async throws(TransportError) -> APIResponse {
        let url = url(request.path)
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
        if let token { r.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (k, v) in request.headers { r.setValue(v, forHTTPHeaderField: k) }
        let session = self.session
        let urlRequest = r
        let outcome: Result<Reply, any Error> = await Deadline.run(seconds: timeout) { done in
            let task = session.dataTask(with: urlRequest) { data, response, error in
                if let error { return done(.failure(error)) }
                guard let response else { return done(.failure(URLError(.badServerResponse))) }
                done(.success(Reply(data: data ?? Data(), response: response)))
            }
            task.resume()
            return { task.cancel() }
        }
        switch outcome {
        case .success(let reply):
            let (data, response) = (reply.data, reply.response)
            guard let http = response as? HTTPURLResponse else {
                throw .connection(url: url, reason: "the reply was not HTTP")
            }
            var headers: [String: String] = [:]
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
            }
            return APIResponse(status: http.statusCode, headers: headers, body: data, url: url)
        case .failure(let error):
            if error is Deadline.Expired { throw .timeout(url: url, seconds: timeout) }
            if let u = error as? URLError, u.code == .timedOut { throw .timeout(url: url, seconds: timeout) }
            throw .connection(url: url, reason: TransportError.reason(error))
        }
    }
}

/// A reply as the data task hands it over (URLResponse is a class Foundation never mutates).
private struct Reply: @unchecked Sendable {
    var data: Data
    var response: URLResponse
}

/// A request relative to the API's base URL.
public struct APIRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
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
        if let o = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let m = o["error"] as? String {
            return m
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status) with no message" : "HTTP \(status): \(text)"
    }

    /// The JSON object in the body, or nil.
    public var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}

/// No HTTP reply: the server could not be reached, or did not answer in time.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    case timeout(url: URL, seconds: Double)
    case connection(url: URL, reason: String)

    public var description: String {
        switch self {
        case .timeout(let url, _): "no reply from \(url.absoluteString) \(reason)"
        case .connection(let url, let reason): "cannot reach \(url.absoluteString): \(reason)"
        }
    }

    /// What went wrong, without the URL.
    public var reason: String {
        switch self {
        case .timeout(_, let s): "no reply within \(s.formatted(.number.precision(.fractionLength(0...1)))) s"
        case .connection(_, let reason): reason
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
            default: break
            }
        }
        return (error as NSError).localizedDescription
    }
}
