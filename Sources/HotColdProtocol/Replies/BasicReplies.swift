/// The greeting, and the reply to `version`.
public struct VersionReply: FixedClassMessage, Equatable {
    public static let wireClass = "VERSION"
    var release: String
    var protoMajor: Int
    var protoMinor: Int

    init(release: String, protoMajor: Int, protoMinor: Int) {
        self.release = release
        self.protoMajor = protoMajor
        self.protoMinor = protoMinor
    }
}

/// The reply to `watch`: the subscription now in force.
public struct WatchReply: FixedClassMessage, Equatable {
    public static let wireClass = "WATCH"
    public var enable: Bool
    var classes: [String]?
    var targets: [String]?
    /// The sequence number replay starts after (echoes `since`).
    public var since: Int?
    /// When `since` is older than the log holds: the first sequence number still available.
    public var sinceGap: Int?
    /// With `since`: how many logged events follow this reply before the live stream.
    public var replay: Int?

    public init(enable: Bool, classes: [String]? = nil, targets: [String]? = nil, since: Int? = nil,
                sinceGap: Int? = nil, replay: Int? = nil) {
        self.enable = enable
        self.classes = classes
        self.targets = targets
        self.since = since
        self.sinceGap = sinceGap
        self.replay = replay
    }
}

/// Ends the reply to `poll`, after one PROXIMITY per tracked target.
public struct PollReply: FixedClassMessage, Equatable {
    public static let wireClass = "POLL"
    var count: Int
    /// The stored places the device is at (arrived, not departed; restored ones included).
    var at: [String]?
    public init(count: Int, at: [String]? = nil) {
        self.count = count
        self.at = at
    }
}

/// The reply to `hunt` and `roam`: what is tracked now.
public struct TrackingReply: FixedClassMessage, Equatable {
    public static let wireClass = "TRACKING"
    var mode: String
    public var radiusM: Double?
    public var targets: Int
    /// The places a hunt asked for by id that are gone (since 1.12): hunted as asked, and said.
    public var gone: [GoneTarget]?

    /// A hunted place that is gone, and why (`demolished`, `withdrawn`, `archived`, …).
    public struct GoneTarget: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var gone: String

        public init(id: String, name: String, gone: String) {
            self.id = id
            self.name = name
            self.gone = gone
        }
    }

    public init(mode: String, radiusM: Double? = nil, targets: Int, gone: [GoneTarget]? = nil) {
        self.mode = mode
        self.radiusM = radiusM
        self.targets = targets
        self.gone = gone
    }
}

/// The reply to `report`: the daemon now shows this service's state in `status`.
public struct ReportReply: FixedClassMessage, Equatable {
    public static let wireClass = "REPORT"
    var service: String
    public init(service: String) { self.service = service }
}
