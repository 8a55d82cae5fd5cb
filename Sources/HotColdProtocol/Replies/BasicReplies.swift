/// The greeting, and the reply to `version`.
public struct VersionReply: FixedClassMessage, Equatable {
    public static let wireClass = "VERSION"
    public var release: String
    public var protoMajor: Int
    public var protoMinor: Int

    public init(release: String, protoMajor: Int, protoMinor: Int) {
        self.release = release
        self.protoMajor = protoMajor
        self.protoMinor = protoMinor
    }
}

/// The reply to `watch`: the subscription now in force.
public struct WatchReply: FixedClassMessage, Equatable {
    public static let wireClass = "WATCH"
    public var enable: Bool
    public var classes: [String]?
    public var targets: [String]?
    /// The sequence number replay starts after (echoes `since`).
    public var since: Int?
    /// When `since` is older than the log holds: the first sequence number still available.
    public var sinceGap: Int?

    public init(enable: Bool, classes: [String]? = nil, targets: [String]? = nil, since: Int? = nil, sinceGap: Int? = nil) {
        self.enable = enable
        self.classes = classes
        self.targets = targets
        self.since = since
        self.sinceGap = sinceGap
    }
}

/// Ends the reply to `poll`, after one PROXIMITY per tracked target.
public struct PollReply: FixedClassMessage, Equatable {
    public static let wireClass = "POLL"
    public var count: Int
    public init(count: Int) { self.count = count }
}

/// The reply to `hunt` and `roam`: what is tracked now.
public struct TrackingReply: FixedClassMessage, Equatable {
    public static let wireClass = "TRACKING"
    public var mode: String
    public var radiusM: Double?
    public var targets: Int

    public init(mode: String, radiusM: Double? = nil, targets: Int) {
        self.mode = mode
        self.radiusM = radiusM
        self.targets = targets
    }
}
