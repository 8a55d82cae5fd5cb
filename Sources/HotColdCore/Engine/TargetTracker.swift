/// Everything the engine knows about one tracked target.
struct TargetTracker: Sendable {
    public var tier = TierTracker()
    public var trend = TrendEstimator()
    public var arrival = ArrivalDetector()
    /// Last measured distance and bearing, and the fix time they belong to.
    public var distance: Double = .nan
    public var bearing: Double = .nan
    public var time: Double = .nan
    /// Whether the first PROXIMITY has gone out.
    public var announced = false
    /// The target with its trigonometry done once: the flat frame centred on it (for passes
    /// between fixes) and its end of every distance measured to it.
    public let frame: LocalFrame
    public let point: GeodesicPoint

    public init(at target: Coordinate) {
        frame = LocalFrame(origin: target)
        point = GeodesicPoint(target)
    }
}

/// A tracked target's state as `status` and `poll` report it.
public struct TrackedTarget: Sendable, Equatable {
    public var target: TargetRef
    public var distance: Double
    public var bearing: Double
    public var tier: Tier
    public var trend: Trend
    public var arrived: Bool
    /// Where the target is (its own coordinate, not one derived from the fix).
    public var coordinate: Coordinate
}

/// Counters the daemon's `status` reports.
public struct EngineStats: Sendable, Equatable {
    public var fixes = 0
    public var accepted = 0
    var noPosition = 0
    public var outOfOrder = 0
    public var outliers = 0
    public var events = 0
    public init() {}
}
