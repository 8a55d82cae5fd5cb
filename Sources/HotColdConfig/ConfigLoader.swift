import Foundation
import HotColdCore
import TOMLKit

/// Reads `hotcoldd.toml`: unknown keys and bad values are errors naming the key and its line.
///
/// ```swift
/// let config = try ConfigLoader.load(path: "config/hotcoldd.toml")
/// print(config.engine.arrivalRadius)   // 100.0
/// ```
public enum ConfigLoader {
    public static func load(path: String) throws(ConfigError) -> Configuration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, line: nil, key: nil,
                              message: "cannot read the file: \(Self.reason(error))")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> Configuration {
        if let line = TOMLHeaderCheck.firstBadHeader(in: text) {
            throw ConfigError(file: file, line: line, key: nil,
                              message: "not valid TOML: a table header must start with a name (letters, digits, _ or -, or a quoted name)")
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigError(file: file, line: e.source.begin.line, key: nil,
                              message: "not valid TOML (column \(e.source.begin.column)): \(e.description)")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid TOML: \(error)")
        }
        var reader = TableReader(root: root, lines: TOMLKeyLines(text: text), file: file)
        return try reader.read()
    }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}

/// Walks the parsed tables, converting and checking each value.
private struct TableReader {
    let root: TOMLTable
    let lines: TOMLKeyLines
    let file: String

    func fail(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: lines.line(of: key), key: key, message: message)
    }

    mutating func read() throws(ConfigError) -> Configuration {
        var c = Configuration()
        let known: [String: Set<String>] = [
            "gpsd": ["host", "port"],
            "socket": ["path", "mode", "allowed_users", "allowed_groups", "max_clients", "max_clients_per_user",
                       "write_burst", "writes_per_second"],
            "quotas": ["locations_per_user", "observations_per_user", "pending_submissions_per_user",
                       "notes_per_user", "manual_visits_per_user"],
            "log": ["path"],
            "store": ["database", "catalogue"],
            "tracking": ["mode", "roam_radius", "roam_kinds", "targets"],
            "api": ["base_url", "token", "sync_interval", "allow_http_loopback"],
            "engine": Set(EngineKeys.all.map(\.key)),
            "tiers": ["names", "bounds"],
        ]
        for key in root.keys {
            guard let allowed = known[key] else {
                throw fail(key, "unknown section or key (known sections: \(known.keys.sorted().joined(separator: ", ")))")
            }
            guard let table = root[key]?.table else { throw fail(key, "expected a [\(key)] table") }
            for sub in table.keys where !allowed.contains(sub) {
                throw fail("\(key).\(sub)", "unknown key (known in [\(key)]: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        if let t = root["gpsd"]?.table {
            if let v = try string(t, "gpsd", "host") {
                guard !v.isEmpty else { throw fail("gpsd.host", "expected a host name, got an empty string") }
                c.gpsd.host = v
            }
            if let v = try int(t, "gpsd", "port") {
                guard (1...65535).contains(v) else { throw fail("gpsd.port", "expected a port 1–65535, got \(v)") }
                c.gpsd.port = v
            }
        }
        if let t = root["socket"]?.table {
            if let v = try string(t, "socket", "path") { c.socket.path = try absolutePath(v, "socket.path") }
            if let v = try string(t, "socket", "mode") {
                guard let m = UInt16(v, radix: 8), m <= 0o777 else {
                    throw fail("socket.mode", "expected an octal file mode such as \"0660\", got \"\(v)\"")
                }
                c.socket.mode = m
            }
            if let v = try strings(t, "socket", "allowed_users") { c.socket.allowedUsers = v }
            if let v = try strings(t, "socket", "allowed_groups") { c.socket.allowedGroups = v }
            c.socket.maxClients = try count(t, "socket", "max_clients", 1...65_536) ?? c.socket.maxClients
            c.socket.maxClientsPerUser = try count(t, "socket", "max_clients_per_user", 1...65_536) ?? c.socket.maxClientsPerUser
            c.socket.writeBurst = try count(t, "socket", "write_burst", 1...100_000) ?? c.socket.writeBurst
            if let v = try number(t, "socket", "writes_per_second") {
                guard v.isFinite, v >= 0.01, v <= 100_000 else {
                    throw fail("socket.writes_per_second", "expected a number of writes per second from 0.01 to 100000, got \(v)")
                }
                c.socket.writesPerSecond = v
            }
        }
        if let t = root["quotas"]?.table {
            let q = 1...1_000_000_000
            c.quotas.locationsPerUser = try count(t, "quotas", "locations_per_user", q) ?? c.quotas.locationsPerUser
            c.quotas.observationsPerUser = try count(t, "quotas", "observations_per_user", q) ?? c.quotas.observationsPerUser
            c.quotas.pendingSubmissionsPerUser = try count(t, "quotas", "pending_submissions_per_user", q) ?? c.quotas.pendingSubmissionsPerUser
            c.quotas.notesPerUser = try count(t, "quotas", "notes_per_user", q) ?? c.quotas.notesPerUser
            c.quotas.manualVisitsPerUser = try count(t, "quotas", "manual_visits_per_user", q) ?? c.quotas.manualVisitsPerUser
        }
        if let t = root["log"]?.table, let v = try string(t, "log", "path") {
            c.log.path = try absolutePath(v, "log.path")
        }
        if let t = root["store"]?.table {
            if let v = try string(t, "store", "database") { c.store.database = try absolutePath(v, "store.database") }
            if let v = try string(t, "store", "catalogue") { c.store.catalogue = v }
        }
        if let t = root["tracking"]?.table {
            if let v = try string(t, "tracking", "mode") {
                guard let m = Configuration.Tracking.Mode(rawValue: v) else {
                    throw fail("tracking.mode", "expected \"hunt\" or \"roam\", got \"\(v)\"")
                }
                c.tracking.mode = m
            }
            if let v = try distance(t, "tracking", "roam_radius") {
                guard v > 0, v <= Configuration.Tracking.maxRoamRadius else {
                    throw fail("tracking.roam_radius", "expected a distance above 0 and at most 20000km, got \(v) m")
                }
                c.tracking.roamRadius = v
            }
            if let v = try strings(t, "tracking", "roam_kinds") { c.tracking.roamKinds = v }
            if let v = try strings(t, "tracking", "targets") { c.tracking.targets = v }
        }
        if let t = root["api"]?.table {
            if let v = try string(t, "api", "base_url") {
                guard v.isEmpty || v.hasPrefix("http://") || v.hasPrefix("https://") else {
                    throw fail("api.base_url", "expected an http:// or https:// URL, got \"\(v)\"")
                }
                c.api.baseURL = v
            }
            if let v = try string(t, "api", "token") { c.api.token = v }
            if let v = try number(t, "api", "sync_interval") {
                guard v > 0, v <= Configuration.API.maxSyncIntervalSeconds else {
                    throw fail("api.sync_interval", "expected a number of seconds above 0 and at most 2592000 (30 days), got \(v)")
                }
                c.api.syncIntervalSeconds = v
            }
            if let v = try bool(t, "api", "allow_http_loopback") { c.api.allowHTTPLoopback = v }
        }
        if let t = root["engine"]?.table {
            for k in EngineKeys.all {
                guard t[k.key] != nil else { continue }
                let full = "engine.\(k.key)"
                let v: Double?
                switch k.kind {
                case .distance: v = try distance(t, "engine", k.key)
                case .number: v = try number(t, "engine", k.key)
                case .count: v = try count(t, "engine", k.key).map(Double.init)
                }
                if let v { k.set(&c.engine, v) }
                _ = full
            }
            if let (key, problem) = c.engine.validationProblems().first {
                throw fail("engine.\(key)", problem)
            }
        }
        if let t = root["tiers"]?.table {
            let names = try strings(t, "tiers", "names") ?? c.engine.tiers.tiers.map(\.name)
            var bounds = c.engine.tiers.bounds
            if let arr = t["bounds"] {
                guard let a = arr.array else { throw fail("tiers.bounds", "expected an array of distances") }
                bounds = []
                for (i, item) in a.enumerated() {
                    guard let d = Self.distanceValue(item) else {
                        throw fail("tiers.bounds", "item \(i + 1): expected a distance such as 100 or \"1.5km\"")
                    }
                    bounds.append(d)
                }
            }
            do {
                c.engine.tiers = try TierLadder(names: names, bounds: bounds)
            } catch {
                throw fail(t["bounds"] != nil ? "tiers.bounds" : "tiers.names", error.description)
            }
        }
        return c
    }

    // MARK: - Typed getters

    func string(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> String? {
        guard let v = t[key] else { return nil }
        guard let s = v.string else { throw fail("\(table).\(key)", "expected a string, got \(v.type)") }
        return s
    }

    func bool(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> Bool? {
        guard let v = t[key] else { return nil }
        guard let b = v.bool else { throw fail("\(table).\(key)", "expected true or false, got \(v.type)") }
        return b
    }

    func int(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> Int? {
        guard let v = t[key] else { return nil }
        guard let i = v.int else { throw fail("\(table).\(key)", "expected an integer, got \(v.type)") }
        return i
    }

    /// An integer within `range` (a count or a limit).
    func count(_ t: TOMLTable, _ table: String, _ key: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = try int(t, table, key) else { return nil }
        guard range.contains(v) else {
            throw fail("\(table).\(key)", "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(v)")
        }
        return v
    }

    /// A count of fixes or events: a whole number in ``countRange``, so that it converts to
    /// `Int` and back exactly and no loop or buffer sized by it can be absurd.
    func count(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> Int? {
        try count(t, table, key, Self.countRange)
    }

    static let countRange = 1...1000

    /// A finite number: TOML allows `inf` and `nan`, which no setting means.
    func number(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> Double? {
        guard let v = t[key] else { return nil }
        if let d = v.double {
            guard d.isFinite else { throw fail("\(table).\(key)", "expected a finite number, got \(d)") }
            return d
        }
        if let i = v.int { return Double(i) }
        throw fail("\(table).\(key)", "expected a number, got \(v.type)")
    }

    func distance(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> Double? {
        guard let v = t[key] else { return nil }
        guard let d = Self.distanceValue(v) else {
            throw fail("\(table).\(key)", "expected a distance such as 100, \"850m\" or \"1.2km\", got \(v.debugDescription)")
        }
        return d
    }

    static func distanceValue(_ v: any TOMLValueConvertible) -> Double? {
        if let d = v.double { return d.isFinite && d >= 0 ? d : nil }
        if let i = v.int { return i >= 0 ? Double(i) : nil }
        if let s = v.string { return DistanceParser.metres(s) }
        return nil
    }

    func strings(_ t: TOMLTable, _ table: String, _ key: String) throws(ConfigError) -> [String]? {
        guard let v = t[key] else { return nil }
        guard let a = v.array else { throw fail("\(table).\(key)", "expected an array of strings, got \(v.type)") }
        var out: [String] = []
        for (i, item) in a.enumerated() {
            guard let s = item.string else {
                throw fail("\(table).\(key)", "item \(i + 1): expected a string, got \(item.type)")
            }
            out.append(s)
        }
        return out
    }

    func absolutePath(_ v: String, _ key: String) throws(ConfigError) -> String {
        guard v.hasPrefix("/") else { throw fail(key, "expected an absolute path, got \"\(v)\"") }
        return v
    }
}
