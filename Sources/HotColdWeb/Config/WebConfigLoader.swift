#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HotColdConfig

/// Reads `hotcold-web.toml` with the project's TOML reader: unknown keys and bad values are
/// errors naming the key and line.
///
/// ```swift
/// let config = try WebConfigLoader.load(path: "config/hotcold-web.toml")
/// config.listen.port   // 8470
/// ```
public enum WebConfigLoader {
    public static func load(path: String) throws(ConfigError) -> WebConfiguration {
        try read(TOMLDocument(path: path, known: known))
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> WebConfiguration {
        try read(TOMLDocument(text: text, file: file, known: known))
    }

    static let known: [String: Set<String>] = [
        "daemon": ["socket", "config"],
        "listen": ["address", "port", "public_url", "hosts"],
        "live": ["max_clients", "max_per_device", "client_queue", "status_interval"],
        "access": ["state_directory", "control_socket", "token_days", "link_minutes", "max_devices", "max_connections",
                   "max_unpaired_per_address", "idle_timeout", "requests_per_second",
                   "request_burst", "writes_per_second", "write_burst"],
        "page": ["tile_url"],
    ]

    private static func read(_ doc: TOMLDocument) throws(ConfigError) -> WebConfiguration {
        var c = WebConfiguration()
        if let v = try socketPath(doc, "daemon.socket") { c.daemon.socket = v }
        if let v = try doc.string("daemon.config") { c.daemon.config = v }
        if let v = try doc.string("listen.address") {
            guard IPAddressText.isIPAddress(v) else {
                throw doc.fail("listen.address", "expected an IPv4 or IPv6 address such as 127.0.0.1 or 10.42.0.1, got \"\(v)\"")
            }
            c.listen.address = v
        }
        if let v = try doc.integer("listen.port", in: 1...65535) { c.listen.port = v }
        if let v = try doc.string("listen.public_url") {
            guard v.isEmpty || ((v.hasPrefix("http://") || v.hasPrefix("https://")) && URL(string: v)?.host != nil) else {
                throw doc.fail("listen.public_url", "expected empty or an http:// or https:// URL, got \"\(v)\"")
            }
            c.listen.publicURL = v.hasSuffix("/") ? String(v.dropLast()) : v
        }
        if let v = doc.value("listen.hosts") {
            guard let a = v.array else { throw doc.fail("listen.hosts", "expected an array of host names, got \(v.type)") }
            var hosts: [String] = []
            for (i, item) in a.enumerated() {
                guard let h = item.string, HostCheck.isHostName(h) || IPAddressText.isIPAddress(h) else {
                    throw doc.fail("listen.hosts", "item \(i + 1): expected a host name such as \"hotcold.local\" (no port, no scheme)")
                }
                hosts.append(h.lowercased())
            }
            c.listen.hosts = hosts
        }
        if let v = try doc.integer("live.max_clients", in: 1...256) { c.live.maxClients = v }
        if let v = try doc.integer("live.max_per_device", in: 1...256) { c.live.maxPerDevice = v }
        if let v = try doc.integer("live.client_queue", in: 16...65536) { c.live.clientQueue = v }
        if let v = try doc.number("live.status_interval", in: 0.1...1.0) { c.live.statusInterval = v }
        if let v = try doc.string("access.state_directory") {
            guard v.hasPrefix("/") else { throw doc.fail("access.state_directory", "expected an absolute path, got \"\(v)\"") }
            c.access.stateDirectory = v
        }
        if let v = try socketPath(doc, "access.control_socket") { c.access.controlSocket = v }
        if let v = try doc.integer("access.token_days", in: 1...3650) { c.access.tokenDays = v }
        if let v = try doc.integer("access.link_minutes", in: 1...60) { c.access.linkMinutes = v }
        if let v = try doc.integer("access.max_devices", in: 1...1024) { c.access.maxDevices = v }
        if let v = try doc.integer("access.max_connections", in: 16...65536) { c.access.maxConnections = v }
        if let v = try doc.integer("access.max_unpaired_per_address", in: 1...65536) { c.access.maxUnpairedPerAddress = v }
        if let v = try doc.number("access.idle_timeout", in: 1...300) { c.access.idleTimeout = v }
        if let v = try doc.number("access.requests_per_second", in: 0.1...1000) { c.access.requestsPerSecond = v }
        if let v = try doc.integer("access.request_burst", in: 1...10000) { c.access.requestBurst = v }
        if let v = try doc.number("access.writes_per_second", in: 0.01...100) { c.access.writesPerSecond = v }
        if let v = try doc.integer("access.write_burst", in: 1...1000) { c.access.writeBurst = v }
        if let v = try doc.string("page.tile_url") {
            guard v.isEmpty || (TileURL.origin(of: v) != nil && v.contains("{z}") && v.contains("{x}") && v.contains("{y}")) else {
                throw doc.fail("page.tile_url", "expected empty or an http(s) URL with {z}, {x} and {y}, got \"\(v)\"")
            }
            c.page.tileURL = v
        }
        return c
    }

    private static func socketPath(_ doc: TOMLDocument, _ key: String) throws(ConfigError) -> String? {
        guard let v = try doc.string(key) else { return nil }
        guard v.hasPrefix("/"), v.utf8.count < 108 else {
            throw doc.fail(key, "expected an absolute path under 108 bytes, got \"\(v)\"")
        }
        return v
    }
}

/// The origin (`scheme://host[:port]`) of a tile URL template, for the Content-Security-Policy.
enum TileURL {
    static func origin(of template: String) -> String? {
        let probe = template.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0")
        guard let u = URL(string: probe), let scheme = u.scheme, scheme == "http" || scheme == "https",
              let host = u.host, !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        return "\(scheme)://\(host)" + (u.port.map { ":\($0)" } ?? "")
    }
}

/// Whether text is a literal IP address (inet_pton), not a name.
enum IPAddressText {
    static func isIPAddress(_ s: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, s, &v4) == 1 || inet_pton(AF_INET6, s, &v6) == 1
    }
}
