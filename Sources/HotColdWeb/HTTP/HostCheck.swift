import Hummingbird
import NIOCore

/// Refuses a request whose `Host` is not one this page is served as (421), reads and writes
/// alike: the DNS-rebinding defence. A website opened in a browser on the box (or on a phone
/// on the Wi-Fi) can make its own name resolve to the box; the browser then counts the box's
/// page as that website's own origin and lets its script read it — but every such request
/// names the website in `Host`, and is refused here. (Writes compare `Origin` with `Host`,
/// so that check stands only because `Host` is checked first.)
///
/// Allowed: the names in `listen.hosts`, `public_url`'s host and `localhost`; as an address,
/// the very address the connection arrived at (whatever `listen.address`, a wildcard too) and
/// the loopback addresses. An address can be no rebinding: the browser's origin is then the
/// box's own address. The port is not compared (a rebinding page uses the box's port anyway).
struct HostCheck: RouterMiddleware {
    typealias Context = WebContext
    let names: Set<String>

    init(config: WebConfiguration) {
        var n: Set<String> = ["localhost", "127.0.0.1", "::1"]
        n.formUnion(config.listen.hosts.map { $0.lowercased() })
        if let h = Self.hostName(ofURL: config.listen.publicURL) { n.insert(h) }
        if !Self.isWildcard(config.listen.address) { n.insert(Self.normalised(config.listen.address)) }
        names = n
    }

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        guard allows(request.head.authority, localAddress: context.localAddress?.ipAddress) else {
            throw HTTPError(.misdirectedRequest,
                            message: "this page is not served under that name: open it at the address `hotcold web pair` printed")
        }
        return try await next(request, context)
    }

    /// Whether `authority` ("host", "host:port", "[v6]:port") names this page.
    func allows(_ authority: String?, localAddress: String?) -> Bool {
        guard let authority, let host = Self.host(ofAuthority: authority) else { return false }
        if names.contains(host) { return true }
        if let local = localAddress.map(Self.normalised), IPAddressText.isIPAddress(host), host == local { return true }
        return false
    }

    /// The host of an authority, lower-cased, without port, brackets or a final dot; nil when
    /// it is not a host name or an address.
    static func host(ofAuthority a: String) -> String? {
        var h = Substring(a)
        if h.hasPrefix("[") {
            guard let close = h.firstIndex(of: "]") else { return nil }
            h = h[h.index(after: h.startIndex)..<close]
        } else if let colon = h.firstIndex(of: ":") {
            h = h[..<colon]
        }
        var s = String(h).lowercased()
        if s.hasSuffix(".") { s.removeLast() }
        guard isHostName(s) || IPAddressText.isIPAddress(s) else { return nil }
        return normalised(s)
    }

    static func hostName(ofURL url: String) -> String? {
        guard let rest = url.split(separator: "://", maxSplits: 1).dropFirst().first else { return nil }
        return host(ofAuthority: String(rest.prefix { $0 != "/" }))
    }

    /// An IPv4-mapped IPv6 address as its IPv4 form; other text as it is.
    static func normalised(_ s: String) -> String {
        let l = s.lowercased()
        return l.hasPrefix("::ffff:") && l.contains(".") ? String(l.dropFirst(7)) : l
    }

    static func isWildcard(_ a: String) -> Bool { a == "0.0.0.0" || a == "::" }

    /// Letters, digits, hyphens and dots; 1 to 253 characters.
    static func isHostName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 253 && s.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
    }
}
