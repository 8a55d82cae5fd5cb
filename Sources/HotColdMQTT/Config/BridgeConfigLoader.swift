import Foundation
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
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, line: nil, key: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> BridgeConfiguration {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigError(file: file, line: e.source.begin.line, key: nil,
                              message: "not valid TOML (column \(e.source.begin.column)): \(e.description)")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid TOML: \(error)")
        }
        let r = Reader(lines: TOMLKeyLines(text: text), file: file)
        return try r.read(root)
    }

    static let known: [String: Set<String>] = [
        "daemon": ["socket", "reconnect_max"],
        "broker": ["host", "port", "client_id", "keepalive", "username", "password_file", "max_inflight",
                   "reconnect_min", "reconnect_max"],
        "tls": ["enabled", "ca_file", "cert_file", "key_file"],
        "topics": ["layout", "prefix", "user", "device", "tid"],
        "bridge": ["state_directory", "status_interval", "max_pending"],
    ]
}

private struct Reader {
    let lines: TOMLKeyLines
    let file: String

    func fail(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: lines.line(of: key), key: key, message: message)
    }

    func read(_ root: TOMLTable) throws(ConfigError) -> BridgeConfiguration {
        let known = BridgeConfigLoader.known
        for key in root.keys {
            guard let allowed = known[key] else {
                throw fail(key, "unknown section or key (known sections: \(known.keys.sorted().joined(separator: ", ")))")
            }
            guard let table = root[key]?.table else { throw fail(key, "expected a [\(key)] table") }
            for sub in table.keys where !allowed.contains(sub) {
                throw fail("\(key).\(sub)", "unknown key (known in [\(key)]: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        var c = BridgeConfiguration()
        if let t = root["daemon"]?.table {
            if let v = try string(t, "daemon.socket") {
                guard v.hasPrefix("/"), v.utf8.count < 108 else {
                    throw fail("daemon.socket", "expected an absolute path under 108 bytes, got \"\(v)\"")
                }
                c.daemon.socket = v
            }
            if let v = try number(t, "daemon.reconnect_max", in: 0.1...3600) { c.daemon.reconnectMax = v }
        }
        if let t = root["broker"]?.table {
            if let v = try string(t, "broker.host") {
                guard !v.isEmpty, v.utf8.count <= 253, !v.contains(where: { $0 == " " || $0 == "/" }) else {
                    throw fail("broker.host", "expected a host name or address, got \"\(v)\"")
                }
                c.broker.host = v
            }
            if let v = try int(t, "broker.port", in: 1...65535) { c.broker.port = v }
            if let v = try string(t, "broker.client_id") {
                guard v.utf8.count <= 65535, !v.contains(where: { $0.isNewline }) else {
                    throw fail("broker.client_id", "expected one line of at most 65535 bytes")
                }
                c.broker.clientID = v
            }
            if let v = try int(t, "broker.keepalive", in: 5...65535) { c.broker.keepalive = v }
            if let v = try string(t, "broker.username") { c.broker.username = v }
            if let v = try string(t, "broker.password_file") { c.broker.passwordFile = v }
            if let v = try int(t, "broker.max_inflight", in: 1...65535) { c.broker.maxInflight = v }
            if let v = try int(t, "broker.reconnect_min", in: 1...3600) { c.broker.reconnectMin = v }
            if let v = try int(t, "broker.reconnect_max", in: 1...3600) { c.broker.reconnectMax = v }
            guard c.broker.reconnectMin <= c.broker.reconnectMax else {
                throw fail("broker.reconnect_max", "must be at least broker.reconnect_min (\(c.broker.reconnectMin))")
            }
        }
        if let t = root["tls"]?.table {
            if let v = try bool(t, "tls.enabled") { c.tls.enabled = v }
            if let v = try string(t, "tls.ca_file") { c.tls.caFile = v }
            if let v = try string(t, "tls.cert_file") { c.tls.certFile = v }
            if let v = try string(t, "tls.key_file") { c.tls.keyFile = v }
            guard c.tls.certFile.isEmpty == c.tls.keyFile.isEmpty else {
                throw fail(c.tls.certFile.isEmpty ? "tls.key_file" : "tls.cert_file",
                           "a client certificate needs both tls.cert_file and tls.key_file")
            }
        }
        if let t = root["topics"]?.table {
            if let v = try string(t, "topics.layout") {
                guard let l = TopicLayout(rawValue: v) else {
                    throw fail("topics.layout", "expected \"hotcold\" or \"owntracks\", got \"\(v)\"")
                }
                c.topics.layout = l
            }
            if let v = try string(t, "topics.prefix") {
                if !v.isEmpty, let p = v.split(separator: "/", omittingEmptySubsequences: false)
                    .compactMap({ Topics.problem(level: String($0)) }).first {
                    throw fail("topics.prefix", "each level \(p)")
                }
                c.topics.prefix = v
            }
            if let v = try string(t, "topics.user") {
                if let p = Topics.problem(level: v) { throw fail("topics.user", p) }
                c.topics.user = v
            }
            if let v = try string(t, "topics.device") {
                if !v.isEmpty, let p = Topics.problem(level: v) { throw fail("topics.device", p) }
                c.topics.device = v
            }
            if let v = try string(t, "topics.tid") {
                guard v.utf8.count <= 16 else { throw fail("topics.tid", "expected a short tracker id (at most 16 bytes)") }
                c.topics.trackerID = v
            }
        }
        if let t = root["bridge"]?.table {
            if let v = try string(t, "bridge.state_directory") {
                guard v.isEmpty || v.hasPrefix("/") else {
                    throw fail("bridge.state_directory", "expected an absolute path, got \"\(v)\"")
                }
                c.bridge.stateDirectory = v
            }
            if let v = try number(t, "bridge.status_interval", in: 0.1...3600) { c.bridge.statusInterval = v }
            if let v = try int(t, "bridge.max_pending", in: 10...1_000_000) { c.bridge.maxPending = v }
        }
        return c
    }

    private func value(_ t: TOMLTable, _ key: String) -> (any TOMLValueConvertible)? {
        t[String(key.split(separator: ".").last!)]
    }

    func string(_ t: TOMLTable, _ key: String) throws(ConfigError) -> String? {
        guard let v = value(t, key) else { return nil }
        guard let s = v.string else { throw fail(key, "expected a string, got \(v.type)") }
        guard s.utf8.count <= 4096 else { throw fail(key, "longer than 4096 bytes") }
        return s
    }

    func bool(_ t: TOMLTable, _ key: String) throws(ConfigError) -> Bool? {
        guard let v = value(t, key) else { return nil }
        guard let b = v.bool else { throw fail(key, "expected true or false, got \(v.type)") }
        return b
    }

    func int(_ t: TOMLTable, _ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = value(t, key) else { return nil }
        guard let i = v.int else { throw fail(key, "expected an integer, got \(v.type)") }
        guard range.contains(i) else { throw fail(key, "expected \(range.lowerBound)–\(range.upperBound), got \(i)") }
        return i
    }

    func number(_ t: TOMLTable, _ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let v = value(t, key) else { return nil }
        let d: Double
        if let x = v.double { d = x } else if let i = v.int { d = Double(i) } else {
            throw fail(key, "expected a number, got \(v.type)")
        }
        guard d.isFinite, range.contains(d) else {
            throw fail(key, "expected \(range.lowerBound)–\(range.upperBound), got \(d)")
        }
        return d
    }
}
