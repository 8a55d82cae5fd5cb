import HotColdConfig
import HotColdCore

/// Command-line flags that override the configuration file.
public struct DaemonOverrides: Sendable {
    public var gpsd: String?
    public var socket: String?
    public var log: String?
    public var database: String?
    public var targets: [String] = []
    public var roam: String?

    public init() {}

    /// Applies the flags to a configuration; a malformed flag is a `ConfigError` naming it.
    public func apply(to c: inout Configuration) throws(ConfigError) {
        if let gpsd {
            let parts = gpsd.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, !parts[0].isEmpty else {
                throw ConfigError(file: "--gpsd", line: nil, key: nil, message: "expected HOST[:PORT], got \"\(gpsd)\"")
            }
            c.gpsd.host = String(parts[0])
            if parts.count == 2 {
                guard let p = Int(parts[1]), (1...65535).contains(p) else {
                    throw ConfigError(file: "--gpsd", line: nil, key: nil, message: "port must be 1–65535, got \"\(parts[1])\"")
                }
                c.gpsd.port = p
            }
        }
        if let socket { c.socket.path = socket }
        if let log { c.log.path = log }
        if let database { c.store.database = database }
        if !targets.isEmpty {
            c.tracking.mode = .hunt
            c.tracking.targets = targets
        }
        if let roam {
            guard let r = DistanceParser.metres(roam), r > 0, r <= Configuration.Tracking.maxRoamRadius else {
                throw ConfigError(file: "--roam", line: nil, key: nil,
                                  message: "expected a distance above 0 and at most 20000km, such as 10km, got \"\(roam)\"")
            }
            c.tracking.mode = .roam
            c.tracking.roamRadius = r
        }
    }
}
