import Foundation

/// The API's base URL, checked once where it enters (config, `--api`): `https://` with a host,
/// or `http://` to a loopback address when explicitly allowed (the reference server in tests).
/// A token sent over plain HTTP to anything but this machine could be read on the way.
///
/// ```swift
/// let base = try BaseURL.check(URL(string: "https://bigthings.example/api")!)   // …/api/
/// _ = try BaseURL.check(URL(string: "http://127.0.0.1:8080")!, allowHTTPLoopback: true)
/// ```
public enum BaseURL {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notAURL(String)
        case plainHTTP(String)
        case plainHTTPNotLoopback(String)
        case hasQueryOrCredentials(String)

        public var description: String {
            switch self {
            case .notAURL(let u): "\(u) is not an https:// URL with a host"
            case .plainHTTP(let u):
                "\(u) is plain http://: the API token would travel unencrypted; use https:// (http:// is allowed only to a loopback address with allow_http_loopback, for tests)"
            case .plainHTTPNotLoopback(let u):
                "\(u) is plain http:// to a host that is not a loopback address; allow_http_loopback covers 127.0.0.0/8, ::1 and localhost only"
            case .hasQueryOrCredentials(let u): "\(u) must not carry a query, a fragment or user:password@"
            }
        }
    }

    /// The checked base URL, with a trailing slash (without one, `URL(string:relativeTo:)`
    /// would drop its last segment).
    public static func check(_ url: URL, allowHTTPLoopback: Bool = false) throws(Problem) -> URL {
        let text = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { throw .notAURL(text) }
        guard url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw .hasQueryOrCredentials(text)
        }
        switch scheme {
        case "https": break
        case "http":
            guard allowHTTPLoopback else { throw .plainHTTP(text) }
            guard isLoopback(host) else { throw .plainHTTPNotLoopback(text) }
        default: throw .notAURL(text)
        }
        guard let slashed = URL(string: text.hasSuffix("/") ? text : text + "/") else { throw .notAURL(text) }
        return slashed
    }

    /// 127.0.0.0/8, ::1 or localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.first == "127" else { return false }
        return parts.allSatisfy { p in p.count <= 3 && UInt8(p) != nil }
    }

    /// Scheme, host and port (the default port made explicit): what "the same server" means.
    public static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\((url.host ?? "").lowercased()):\(port)"
    }
}
