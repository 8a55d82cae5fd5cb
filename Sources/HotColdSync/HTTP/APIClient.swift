import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// Speaks HTTP to the Big Things web API (see `api/openapi.yaml`): one request, one reply,
/// with one hard deadline on every exchange, bounded memory, and the API token kept safe.
///
/// **Token safety.** The token goes only to the API's own origin, over TLS:
/// - the base URL must be `https://`; `http://` is refused unless `allowHTTPLoopback` is set
///   *and* the host is a loopback address (the reference server in tests), see ``BaseURL``;
/// - a request path (which comes from stored outbox data) must stay under the base URL: no
///   scheme or host of its own, no `..`, no query or fragment (``resolve(_:)``);
/// - redirects are followed here, not by the HTTP library, and only within the base URL's
///   origin (same scheme, host and port), at most five; a redirect anywhere else is refused
///   before it is requested (``TransportError/redirect(url:to:)``), so the Authorization
///   header never leaves.
///
/// **The server is not trusted with our memory or time.** The HTTP client is
/// swift-server/async-http-client, which streams the body and stops a transfer when told
/// (FoundationNetworking's did not: a cancelled task kept reading, decompressing and
/// buffering, gigabytes of it). So:
/// - reply bodies are capped (``APIRequest/maxResponseBytes``: 16 MiB for the catalogue, 1 MiB
///   otherwise): a Content-Length over the cap is refused before the body is read, and the
///   bytes are counted as they arrive, after decompression (``BoundedBody``); the decompressor
///   itself stops a body that expands more than 100-fold (``maxCompressionRatio``), so one
///   network read of a compression bomb never becomes more than a few megabytes;
/// - one deadline, `timeout`, covers the whole exchange: connecting, the headers, every byte
///   of the body, and any redirects (``Deadline``);
/// - on a cap or the deadline the request is cancelled, which closes its connection: nothing
///   more is read, decompressed or kept.
///
/// The ``HTTPClient`` runs on NIO's shared event loops; ``shutdown()`` releases its
/// connections (a client dropped without it shuts down in the background).
///
/// ```swift
/// let client = try APIClient(baseURL: URL(string: "https://bigthings.example/api/")!, token: "s3cret", timeout: 20)
/// let reply = try await client.send(APIRequest(method: "GET", path: "bigthings", headers: ["If-None-Match": etag]))
/// await client.shutdown()
/// ```
public final class APIClient: Sendable {
    public let baseURL: URL
    public let token: String?
    /// Seconds from starting a request to having the whole reply.
    public let timeout: Double
    /// Redirects followed per request, at most.
    static let maxRedirects = 5
    /// How many times its compressed size a reply may expand to. Honest JSON, even a catalogue
    /// of repeated descriptions, stays well under 100; 1 GiB of spaces is about 1000. Why a
    /// ratio and not a size: the decompressor inflates each network read in one go, before
    /// our count sees any of it; a 64 KiB read of a bomb would be 64 MiB at once.
    static let maxCompressionRatio = 100
    private let http: HTTPClient

    /// Throws ``BaseURL/Problem`` for a base URL that would put the token at risk.
    public init(baseURL: URL, token: String? = nil, timeout: Double = 30,
                allowHTTPLoopback: Bool = false) throws(BaseURL.Problem) {
        let base = try BaseURL.check(baseURL, allowHTTPLoopback: allowHTTPLoopback)
        self.baseURL = base
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.timeout = timeout
        let wait = TimeAmount.nanoseconds(Int64(max(timeout, 0) * 1e9))
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,       // ours to decide, see send(_:)
            timeout: .init(connect: wait, read: wait),
            decompression: .enabled(limit: .ratio(Self.maxCompressionRatio)))
        // HTTP/1.1 only: a handful of small requests per sync gain nothing from HTTP/2.
        config.httpVersion = .http1Only
        // A server that refuses the connection is down: say so now. (The client would otherwise
        // retry connecting until the deadline and report "did not finish within 30 s"; the
        // syncer's own backoff decides when to try again.)
        config.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: config)
    }

    deinit {
        // Not shut down by its owner (a one-shot command): let it finish in the background.
        // Shutting down twice only reports "already shut down" to this ignored callback.
        http.shutdown(queue: .global()) { _ in }
    }

    /// Closes the client's connections. Call once no request is in flight.
    public func shutdown() async {
        try? await http.shutdown()
    }

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
        let seconds = timeout
        do {
            return try await Deadline.run(seconds: seconds) { try await self.exchange(request, url: url, seconds: seconds) }
        } catch let e as TransportError {
            throw e
        } catch {
            throw Self.transportError(error, url: url, seconds: seconds)
        }
    }

    /// The request, then each same-origin redirect, then the reply's body under its cap.
    private func exchange(_ request: APIRequest, url first: URL, seconds: Double) async throws -> APIResponse {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(max(seconds, 0) * 1e9))
        let cap = max(0, request.maxResponseBytes)
        var url = first
        var method = request.method
        var body = request.body
        var stream = request.stream
        var redirects = 0
        while true {
            let response = try await http.execute(prepare(request, url: url, method: method, body: body, stream: stream),
                                                  deadline: deadline)
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "location") {
                guard let target = URL(string: location, relativeTo: url)?.absoluteURL,
                      BaseURL.origin(target) == BaseURL.origin(baseURL) else {
                    // Not followed: no request goes to the other host, with or without the token.
                    let to = URL(string: location, relativeTo: url)?.absoluteURL.absoluteString ?? location
                    throw TransportError.redirect(url: first, to: String(to.prefix(500)))
                }
                guard redirects < Self.maxRedirects else {
                    throw TransportError.connection(url: first, reason: "the server redirected more than \(Self.maxRedirects) times")
                }
                redirects += 1
                url = target
                // As browsers and curl do: 307/308 repeat the request, the others fetch the target.
                if status != 307 && status != 308 { method = "GET"; body = nil; stream = nil }
                continue    // the redirect's own body is dropped unread (its connection closes)
            }
            var headers: [String: String] = [:]
            for h in response.headers {
                let k = h.name.lowercased()
                headers[k] = headers[k].map { "\($0), \(h.value)" } ?? h.value
            }
            let data = try await BoundedBody.collect(response, cap: cap)
            return APIResponse(status: status, headers: headers, body: data, url: first)
        }
    }

    private func prepare(_ request: APIRequest, url: URL, method: String, body: Data?, stream: APIRequest.Stream?) -> HTTPClientRequest {
        var r = HTTPClientRequest(url: url.absoluteString)
        r.method = HTTPMethod(rawValue: method)
        r.headers.add(name: "Accept", value: "application/json")
        // The decompressor is bounded (see init); gzip saves most of a catalogue's bytes.
        r.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        // A fresh connection per request: nothing waits in a pool between syncs minutes apart,
        // and no request is ever sent on an idle connection the server is just closing.
        r.headers.add(name: "Connection", value: "close")
        if let stream {
            // Its length is known, so it goes with a Content-Length, as the bytes would.
            r.body = .stream(StreamedBody(stream: stream), length: .known(Int64(stream.length)))
            r.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        } else if let body {
            r.body = .bytes(ByteBuffer(bytes: body))
            r.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        }
        for (k, v) in request.headers where !["authorization", "host", "connection"].contains(k.lowercased()) {
            r.headers.replaceOrAdd(name: k, value: v)
        }
        if let token { r.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return r
    }

    /// What a failure of the HTTP library means, in the server's terms.
    static func transportError(_ error: any Error, url: URL, seconds: Double) -> TransportError {
        switch error {
        case is Deadline.Expired:
            return .timeout(url: url, seconds: seconds)
        case let e as BoundedBody.Refusal:
            switch e {
            case .announced(let length, let limit): return .announcedTooLarge(url: url, length: length, limit: limit)
            case .tooLarge(let limit): return .tooLarge(url: url, limit: limit)
            case .expands(let limit): return .expandsTooLarge(url: url, limit: limit)
            }
        case let e as NIOHTTPDecompression.DecompressionError where e == .limit:
            return .expandsTooFar(url: url, ratio: maxCompressionRatio)
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return .connection(url: url, reason: "the server sent a compressed body that does not decompress")
        case let e as HTTPClientError:
            switch e {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout:
                return .timeout(url: url, seconds: seconds)
            case .remoteConnectionClosed:
                return .connection(url: url, reason: "the server closed the connection before the reply was complete")
            case .cancelled:
                return .connection(url: url, reason: "cancelled")
            default:
                return .connection(url: url, reason: "\(e)")
            }
        case let e as NIOConnectionError:
            if e.dnsAError != nil || e.dnsAAAAError != nil, e.connectionErrors.isEmpty {
                return .connection(url: url, reason: "the host name does not resolve")
            }
            if e.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return .connection(url: url, reason: "connection refused")
            }
            return .connection(url: url, reason: "cannot connect: \(e.connectionErrors.first.map { "\($0.error)" } ?? "\(e)")")
        case let e as IOError where e.errnoCode == ECONNREFUSED:
            return .connection(url: url, reason: "connection refused")
        case is CancellationError:
            return .connection(url: url, reason: "cancelled")
        default:
            return .connection(url: url, reason: "\(error)")
        }
    }
}

/// An ``APIRequest/Stream`` as the HTTP client reads a body: piece after piece until its
/// length; a piece that is empty or passes the length stops the request.
struct StreamedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let stream: APIRequest.Stream

    struct Broken: Error, CustomStringConvertible {
        var description: String
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let stream: APIRequest.Stream
        var offset = 0

        mutating func next() async throws -> ByteBuffer? {
            guard offset < stream.length else { return nil }
            let piece = try await stream.read(offset)
            guard !piece.isEmpty, piece.count <= stream.length - offset else {
                throw Broken(description: "the body's piece at \(offset) is \(piece.count) bytes, \(stream.length - offset) remain")
            }
            offset += piece.count
            return ByteBuffer(bytes: piece)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: stream) }
}
