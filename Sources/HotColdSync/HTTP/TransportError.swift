import Foundation

/// No acceptable HTTP reply: the server could not be reached, did not finish in time, or
/// answered with something the client refuses for the token's or the process's safety. The
/// reasons name the server's part, since the server is where the fix lies.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    /// The whole exchange (connect, headers, body) took longer than the deadline.
    case timeout(url: URL, seconds: Double)
    case connection(url: URL, reason: String)
    /// The server announced a body (Content-Length) longer than the request's cap; nothing was read.
    case announcedTooLarge(url: URL, length: Int64, limit: Int)
    /// The body grew past the request's cap while it arrived (nothing of it is kept).
    case tooLarge(url: URL, limit: Int)
    /// A compressed body expanded past the cap while it was decompressed (nothing of it is kept).
    case expandsTooLarge(url: URL, limit: Int)
    /// A compressed body expanded more than `ratio` times (a compression bomb; nothing of it is kept).
    case expandsTooFar(url: URL, ratio: Int)
    /// The server redirected outside the API's origin; the redirect was not followed.
    case redirect(url: URL, to: String)
    /// The request's path would leave the base URL; nothing was sent.
    case unsafePath(path: String, reason: String)

    public var description: String {
        switch self {
        case .timeout(let url, _): "no reply from \(url.absoluteString): \(reason)"
        case .connection(let url, let reason): "cannot reach \(url.absoluteString): \(reason)"
        case .announcedTooLarge(let url, _, _), .tooLarge(let url, _), .expandsTooLarge(let url, _), .expandsTooFar(let url, _),
             .redirect(let url, _):
            "\(url.absoluteString): \(reason)"
        case .unsafePath: "refused to send: \(reason)"
        }
    }

    /// What went wrong, without the URL.
    public var reason: String {
        switch self {
        case .timeout(_, let s):
            "the server did not finish within \(Self.seconds(s)) s"
        case .connection(_, let reason): reason
        case .announcedTooLarge(_, let length, let limit):
            "the server announced Content-Length \(length), over the cap of \(Self.size(limit)); nothing was read"
        case .tooLarge(_, let limit): "the server sent more than \(Self.size(limit)); the rest was not read"
        case .expandsTooLarge(_, let limit):
            "the server sent a body that expands past \(Self.size(limit)) when decompressed; the rest was not read"
        case .expandsTooFar(_, let ratio):
            "the server sent a body that expands past \(ratio) times its compressed size (a compression bomb); the rest was not read"
        case .redirect(_, let to): "refused a redirect to \(to) (outside the API's origin; the token stays home)"
        case .unsafePath(let path, let reason): "the outbox path \"\(path.prefix(200))\" is unsafe: \(reason)"
        }
    }

    /// "5", "0.5", "2.3": seconds to at most one decimal, the same in every locale (and
    /// without `formatted`, which would bring ICU's data into hotcold-sync for one number).
    static func seconds(_ s: Double) -> String {
        guard s.isFinite, abs(s) < 1e15 else { return "\(s)" }
        let tenths = Int((s * 10).rounded())
        let whole = "\(tenths / 10)"
        return tenths % 10 == 0 ? whole : "\(tenths < 0 && tenths > -10 ? "-" : "")\(whole).\(abs(tenths % 10))"
    }

    /// "16 MiB", "512 KiB", or "1000 bytes".
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
