#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
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
        try TableReader(doc: TOMLDocument(path: path, known: known)).read()
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> Configuration {
        try TableReader(doc: TOMLDocument(text: text, file: file, known: known)).read()
    }

    /// The system's word for a read that failed after the checks in `TOMLDocument` passed.
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return "\(error)"
    }

    /// Every section and its keys.
    static let known: [String: Set<String>] = [
        "gpsd": ["host", "port"],
        "socket": ["path", "mode", "allowed_users", "allowed_groups", "proxies", "max_clients", "max_clients_per_user",
                   "write_burst", "writes_per_second"],
        "quotas": ["locations_per_user", "observations_per_user", "pending_submissions_per_user",
                   "notes_per_user", "manual_visits_per_user", "imported_places_per_user",
                   "staged_mib_per_user", "staged_idle_seconds", "free_space_reserve_mib"],
        "log": ["path"],
        "store": ["database", "catalogue"],
        "tracking": ["mode", "roam_radius", "roam_kinds", "targets", "restore"],
        "api": ["base_url", "token", "sync_interval", "allow_http_loopback"],
        "engine": Set(EngineKeys.all.map(\.key)),
        "tiers": ["names", "bounds"],
        "friends": ["stale_after", "forget_after"],
    ]
}

/// Walks the parsed tables, converting and checking each value.
private struct TableReader {
    let doc: TOMLDocument
    var root: TOMLTable { doc.root }

    func fail(_ key: String, _ message: String) -> ConfigError { doc.fail(key, message) }

    func read() throws(ConfigError) -> Configuration {
        var c = Configuration()
        if root["gpsd"] != nil {
            if let v = try string("gpsd.host") {
                guard !v.isEmpty else { throw fail("gpsd.host", "expected a host name, got an empty string") }
                c.gpsd.host = v
            }
            if let v = try int("gpsd.port") {
                guard (1...65535).contains(v) else { throw fail("gpsd.port", "expected a port 1–65535, got \(v)") }
                c.gpsd.port = v
            }
        }
        if root["socket"] != nil {
            if let v = try string("socket.path") { c.socket.path = try absolutePath(v, "socket.path") }
            if let v = try string("socket.mode") {
                guard let m = UInt16(v, radix: 8), m <= 0o777 else {
                    throw fail("socket.mode", "expected an octal file mode such as \"0660\", got \"\(v)\"")
                }
                c.socket.mode = m
            }
            if let v = try strings("socket.allowed_users") { c.socket.allowedUsers = v }
            if let v = try strings("socket.allowed_groups") { c.socket.allowedGroups = v }
            if let v = try strings("socket.proxies") { c.socket.proxies = v }
            c.socket.maxClients = try count("socket.max_clients", 1...65_536) ?? c.socket.maxClients
            c.socket.maxClientsPerUser = try count("socket.max_clients_per_user", 1...65_536) ?? c.socket.maxClientsPerUser
            c.socket.writeBurst = try count("socket.write_burst", 1...100_000) ?? c.socket.writeBurst
            if let v = try number("socket.writes_per_second") {
                guard v.isFinite, v >= 0.01, v <= 100_000 else {
                    throw fail("socket.writes_per_second", "expected a number of writes per second from 0.01 to 100000, got \(v)")
                }
                c.socket.writesPerSecond = v
            }
        }
        if root["quotas"] != nil {
            let q = 1...1_000_000_000
            c.quotas.locationsPerUser = try count("quotas.locations_per_user", q) ?? c.quotas.locationsPerUser
            c.quotas.observationsPerUser = try count("quotas.observations_per_user", q) ?? c.quotas.observationsPerUser
            c.quotas.pendingSubmissionsPerUser = try count("quotas.pending_submissions_per_user", q) ?? c.quotas.pendingSubmissionsPerUser
            c.quotas.notesPerUser = try count("quotas.notes_per_user", q) ?? c.quotas.notesPerUser
            c.quotas.manualVisitsPerUser = try count("quotas.manual_visits_per_user", q) ?? c.quotas.manualVisitsPerUser
            c.quotas.importedPlacesPerUser = try count("quotas.imported_places_per_user", q) ?? c.quotas.importedPlacesPerUser
            c.quotas.stagedMiBPerUser = try count("quotas.staged_mib_per_user", 1...1_048_576) ?? c.quotas.stagedMiBPerUser
            c.quotas.stagedIdleSeconds = try count("quotas.staged_idle_seconds", 1...86_400) ?? c.quotas.stagedIdleSeconds
            c.quotas.freeSpaceReserveMiB = try count("quotas.free_space_reserve_mib", 0...1_048_576) ?? c.quotas.freeSpaceReserveMiB
        }
        if let v = try string("log.path") {
            c.log.path = try absolutePath(v, "log.path")
        }
        if root["store"] != nil {
            if let v = try string("store.database") { c.store.database = try absolutePath(v, "store.database") }
            if let v = try string("store.catalogue") { c.store.catalogue = v }
        }
        if root["tracking"] != nil {
            if let v = try string("tracking.mode") {
                guard let m = Configuration.Tracking.Mode(rawValue: v) else {
                    throw fail("tracking.mode", "expected \"hunt\" or \"roam\", got \"\(v)\"")
                }
                c.tracking.mode = m
            }
            if let v = try distance("tracking.roam_radius") {
                guard v > 0, v <= Configuration.Tracking.maxRoamRadius else {
                    throw fail("tracking.roam_radius", "expected a distance above 0 and at most 20000km, got \(v) m")
                }
                c.tracking.roamRadius = v
            }
            if let v = try strings("tracking.roam_kinds") { c.tracking.roamKinds = v }
            if let v = try strings("tracking.targets") { c.tracking.targets = v }
            if let v = try bool("tracking.restore") { c.tracking.restore = v }
        }
        if root["api"] != nil {
            if let v = try string("api.base_url") {
                guard v.isEmpty || v.hasPrefix("http://") || v.hasPrefix("https://") else {
                    throw fail("api.base_url", "expected an http:// or https:// URL, got \"\(v)\"")
                }
                c.api.baseURL = v
            }
            if let v = try string("api.token") { c.api.token = v }
            if let v = try number("api.sync_interval") {
                guard v > 0, v <= Configuration.API.maxSyncIntervalSeconds else {
                    throw fail("api.sync_interval", "expected a number of seconds above 0 and at most 2592000 (30 days), got \(v)")
                }
                c.api.syncIntervalSeconds = v
            }
            if let v = try bool("api.allow_http_loopback") { c.api.allowHTTPLoopback = v }
        }
        if root["friends"] != nil {
            for (key, path) in [("friends.stale_after", \Configuration.Friends.staleAfterSeconds),
                                ("friends.forget_after", \Configuration.Friends.forgetAfterSeconds)] {
                guard let v = try number(key) else { continue }
                guard v.isFinite, v >= 1, v <= 7 * 86_400 else {
                    throw fail(key, "expected a number of seconds from 1 to 604800 (7 days), got \(v)")
                }
                c.friends[keyPath: path] = v
            }
            if c.friends.forgetAfterSeconds < c.friends.staleAfterSeconds {
                throw fail("friends.forget_after", "must be at least friends.stale_after (\(Int(c.friends.staleAfterSeconds)) s), got \(Int(c.friends.forgetAfterSeconds)) s")
            }
        }
        if let t = root["engine"]?.table {
            for k in EngineKeys.all {
                guard t[k.key] != nil else { continue }
                let full = "engine.\(k.key)"
                let v: Double?
                switch k.kind {
                case .distance: v = try distance(full)
                case .number: v = try number(full)
                case .count: v = try count(full).map(Double.init)
                }
                if let v { k.set(&c.engine, v) }
            }
            if let (key, problem) = c.engine.validationProblems().first {
                throw fail("engine.\(key)", problem)
            }
        }
        if let t = root["tiers"]?.table {
            let names = try strings("tiers.names") ?? c.engine.tiers.tiers.map(\.name)
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

    // MARK: - Typed getters ("section.key")

    func string(_ key: String) throws(ConfigError) -> String? { try doc.string(key) }

    func bool(_ key: String) throws(ConfigError) -> Bool? { try doc.bool(key) }

    func int(_ key: String) throws(ConfigError) -> Int? { try doc.integer(key, in: Int.min...Int.max) }

    /// An integer within `range` (a count or a limit).
    func count(_ key: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int? { try doc.integer(key, in: range) }

    /// A count of fixes or events: a whole number in ``countRange``, so that it converts to
    /// `Int` and back exactly and no loop or buffer sized by it can be absurd.
    func count(_ key: String) throws(ConfigError) -> Int? { try doc.integer(key, in: Self.countRange) }

    static let countRange = 1...1000

    /// A finite number.
    func number(_ key: String) throws(ConfigError) -> Double? { try doc.number(key, in: -Double.infinity...Double.infinity) }

    func distance(_ key: String) throws(ConfigError) -> Double? {
        guard let v = doc.value(key) else { return nil }
        guard let d = Self.distanceValue(v) else {
            throw fail(key, "expected a distance such as 100, \"850m\" or \"1.2km\", got \(v.debugDescription)")
        }
        return d
    }

    static func distanceValue(_ v: any TOMLValueConvertible) -> Double? {
        if let d = v.double { return d.isFinite && d >= 0 ? d : nil }
        if let i = v.int { return i >= 0 ? Double(i) : nil }
        if let s = v.string { return DistanceParser.metres(s) }
        return nil
    }

    func strings(_ key: String) throws(ConfigError) -> [String]? {
        guard let v = doc.value(key) else { return nil }
        guard let a = v.array else { throw fail(key, "expected an array of strings, got \(v.type)") }
        var out: [String] = []
        for (i, item) in a.enumerated() {
            guard let s = item.string else {
                throw fail(key, "item \(i + 1): expected a string, got \(item.type)")
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
