#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdConfig
import TOMLKit

/// Reads `hotcold-mqtt.toml`: unknown keys and bad values are errors naming the key and line.
///
/// ```swift
/// let config = try BridgeConfigLoader.load(path: "config/hotcold-mqtt.toml")
/// config.topics.layout   // .hotcold
/// ```
public enum BridgeConfigLoader {
    public static func load(path: String) throws(ConfigError) -> BridgeConfiguration {
        try Reader(doc: TOMLDocument(path: path, known: known)).read()
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> BridgeConfiguration {
        try Reader(doc: TOMLDocument(text: text, file: file, known: known)).read()
    }

    static let known: [String: Set<String>] = [
        "daemon": ["socket", "reconnect_max"],
        "broker": ["host", "port", "client_id", "keepalive", "username", "password_file", "max_inflight",
                   "reconnect_min", "reconnect_max"],
        "tls": ["enabled", "ca_file", "cert_file", "key_file"],
        "topics": ["layout", "prefix", "user", "device", "tid"],
        "bridge": ["state_directory", "status_interval", "heartbeat", "max_pending"],
        "homeassistant": ["enabled", "prefix", "expire_after"],
        "owntracks": ["phone_topic", "waypoints", "radius", "phone_app", "phone_interval"],
        "friends": ["club", "inbox_bytes"],
        "share": ["share", "records"],
    ]
}

private struct Reader {
    let doc: TOMLDocument

    func fail(_ key: String, _ message: String) -> ConfigError { doc.fail(key, message) }

    func read() throws(ConfigError) -> BridgeConfiguration {
        var c = BridgeConfiguration()
        if doc.root["daemon"] != nil {
            if let v = try doc.string("daemon.socket") {
                guard v.hasPrefix("/"), v.utf8.count < 108 else {
                    throw fail("daemon.socket", "expected an absolute path under 108 bytes, got \"\(v)\"")
                }
                c.daemon.socket = v
            }
            if let v = try doc.number("daemon.reconnect_max", in: 0.1...3600) { c.daemon.reconnectMax = v }
        }
        if doc.root["broker"] != nil {
            if let v = try doc.string("broker.host") {
                guard !v.isEmpty, v.utf8.count <= 253, !v.contains(where: { $0 == " " || $0 == "/" }) else {
                    throw fail("broker.host", "expected a host name or address, got \"\(v)\"")
                }
                c.broker.host = v
            }
            if let v = try doc.integer("broker.port", in: 1...65535) { c.broker.port = v }
            if let v = try doc.string("broker.client_id") {
                guard v.utf8.count <= 65535, !v.contains(where: { $0.isNewline }) else {
                    throw fail("broker.client_id", "expected one line of at most 65535 bytes")
                }
                c.broker.clientID = v
            }
            if let v = try doc.integer("broker.keepalive", in: 5...65535) { c.broker.keepalive = v }
            if let v = try doc.string("broker.username") { c.broker.username = v }
            if let v = try doc.string("broker.password_file") { c.broker.passwordFile = v }
            if let v = try doc.integer("broker.max_inflight", in: 1...65535) { c.broker.maxInflight = v }
            if let v = try doc.integer("broker.reconnect_min", in: 1...3600) { c.broker.reconnectMin = v }
            if let v = try doc.integer("broker.reconnect_max", in: 1...3600) { c.broker.reconnectMax = v }
            guard c.broker.reconnectMin <= c.broker.reconnectMax else {
                throw fail("broker.reconnect_max", "must be at least broker.reconnect_min (\(c.broker.reconnectMin))")
            }
        }
        if doc.root["tls"] != nil {
            if let v = try doc.bool("tls.enabled") { c.tls.enabled = v }
            if let v = try doc.string("tls.ca_file") { c.tls.caFile = v }
            if let v = try doc.string("tls.cert_file") { c.tls.certFile = v }
            if let v = try doc.string("tls.key_file") { c.tls.keyFile = v }
            guard c.tls.certFile.isEmpty == c.tls.keyFile.isEmpty else {
                throw fail(c.tls.certFile.isEmpty ? "tls.key_file" : "tls.cert_file",
                           "a client certificate needs both tls.cert_file and tls.key_file")
            }
        }
        if doc.root["topics"] != nil {
            if let v = try doc.string("topics.layout") {
                guard let l = TopicLayout(rawValue: v) else {
                    throw fail("topics.layout", "expected \"hotcold\" or \"owntracks\", got \"\(v)\"")
                }
                c.topics.layout = l
            }
            if let v = try doc.string("topics.prefix") {
                if !v.isEmpty, let p = v.split(separator: "/", omittingEmptySubsequences: false)
                    .compactMap({ Topics.problem(level: String($0)) }).first {
                    throw fail("topics.prefix", "each level \(p)")
                }
                c.topics.prefix = v
            }
            if let v = try doc.string("topics.user") {
                if let p = Topics.problem(level: v) { throw fail("topics.user", p) }
                c.topics.user = v
            }
            if let v = try doc.string("topics.device") {
                if !v.isEmpty, let p = Topics.problem(level: v) { throw fail("topics.device", p) }
                c.topics.device = v
            }
            if let v = try doc.string("topics.tid") {
                guard v.utf8.count <= 16 else { throw fail("topics.tid", "expected a short tracker id (at most 16 bytes)") }
                c.topics.trackerID = v
            }
        }
        if doc.root["bridge"] != nil {
            if let v = try doc.string("bridge.state_directory") {
                guard v.isEmpty || v.hasPrefix("/") else {
                    throw fail("bridge.state_directory", "expected an absolute path, got \"\(v)\"")
                }
                c.bridge.stateDirectory = v
            }
            if let v = try doc.number("bridge.status_interval", in: 0.1...3600) { c.bridge.statusInterval = v }
            if let v = try doc.number("bridge.heartbeat", in: 10...3600) { c.bridge.heartbeat = v }
            if let v = try doc.integer("bridge.max_pending", in: 10...1_000_000) { c.bridge.maxPending = v }
        }
        if doc.root["homeassistant"] != nil {
            if let v = try doc.bool("homeassistant.enabled") { c.homeAssistant.enabled = v }
            if let v = try doc.string("homeassistant.prefix") {
                if let p = v.split(separator: "/", omittingEmptySubsequences: false)
                    .compactMap({ Topics.problem(level: String($0)) }).first {
                    throw fail("homeassistant.prefix", "each level \(p)")
                }
                c.homeAssistant.prefix = v
            }
            if let v = try doc.integer("homeassistant.expire_after", in: 0...86_400) { c.homeAssistant.expireAfter = v }
            guard !c.homeAssistant.enabled || c.topics.layout == .hotcold else {
                throw fail("homeassistant.enabled", "discovery describes the hotcold layout's topics: set [topics] layout = \"hotcold\" "
                           + "(for OwnTracks topics use Home Assistant's OwnTracks integration)")
            }
        }
        if doc.root["owntracks"] != nil {
            if let v = try doc.string("owntracks.phone_topic") {
                if !v.isEmpty, let p = v.split(separator: "/", omittingEmptySubsequences: false)
                    .compactMap({ Topics.problem(level: String($0)) }).first {
                    throw fail("owntracks.phone_topic", "each level \(p)")
                }
                c.ownTracks.phoneTopic = v
            }
            // STATUS lists the 50 nearest: the set needs some beyond it to hold steady.
            if let v = try doc.integer("owntracks.waypoints", in: 1...40) { c.ownTracks.waypoints = v }
            if let v = try doc.integer("owntracks.radius", in: 1...100_000) { c.ownTracks.radius = v }
            if let v = try doc.string("owntracks.phone_app") {
                guard let a = PhoneRegions.App(rawValue: v) else {
                    throw fail("owntracks.phone_app", "expected \"android\" (either app) or \"ios\" (iPhones only), got \"\(v)\"")
                }
                c.ownTracks.phoneApp = a
            }
            if let v = try doc.number("owntracks.phone_interval", in: 0...3600) { c.ownTracks.phoneInterval = v }
        }
        if doc.root["friends"] != nil {
            if let v = try doc.string("friends.club") {
                if !v.isEmpty, let p = v.split(separator: "/", omittingEmptySubsequences: false)
                    .compactMap({ Topics.problem(level: String($0)) }).first {
                    throw fail("friends.club", "each level \(p)")
                }
                c.friends.club = v
            }
            // At least a few feed items (8 KiB each, base64 in the journal); at most what the
            // unit's MemoryMax=64M leaves room for beside the bridge itself.
            if let v = try doc.integer("friends.inbox_bytes", in: (64 << 10)...(32 << 20)) { c.friends.inboxBytes = v }
        }
        if doc.root["share"] != nil {
            if let v = try doc.string("share.share") {
                guard let s = SharePolicy(rawValue: v) else {
                    throw fail("share.share", "expected \"positions\", \"visits\" or \"nothing\", got \"\(v)\"")
                }
                c.share.share = s
            }
            if let v = try doc.bool("share.records") { c.share.records = v }
        }
        return c
    }
}
