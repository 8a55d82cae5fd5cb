#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The hot/cold state machine: a fix in, events out. No I/O, no clocks, no randomness, so
/// replaying a track always gives the same events.
///
/// ```swift
/// var engine = ProximityEngine(targets: [bigBanana], mode: .hunt)
/// for fix in track {
///     for event in engine.process(fix) { handle(event) }
/// }
/// ```
public struct ProximityEngine: Sendable {
    public let config: EngineConfig
    public private(set) var mode: TrackingMode
    public private(set) var targets: [Target]
    public private(set) var gpsState: GPSState?
    public private(set) var stats = EngineStats()
    /// The last trusted fix.
    public var lastFix: Fix? { filter.last }

    /// Roam: the targets' k-d tree, queried for those within reach as the car moves.
    private var index: SpatialIndex?
    private var filter = FixFilter()
    private var motion = MotionDetector()
    // Tracked targets: `trackedOrder[k]` is an index into `targets`, `trackers[k]` its state.
    // Kept sorted by target index for deterministic output, and mutated in place (a copy of a
    // tracker would copy its trend window on every fix).
    private var trackers: [TargetTracker] = []
    private var trackedOrder: [Int] = []
    // Whether each target (by index) is tracked: a flat array, looked up for every roam
    // candidate on every fix (a set would hash each time).
    private var isTracked: [Bool] = []
    // Roam: candidates near the last query point, refreshed after moving `roamRefresh` metres.
    private var candidates: [Int] = []
    private var candidatesCentre: Coordinate?
    private var lastGoodTime: Double?
    // The previous trusted position and time, for passes between fixes; nil after a break.
    private var segmentStart: (Coordinate, Double)?
    // Target ids restored as already arrived that are not tracked yet (see `restoreArrivals`).
    private var restoredPending: Set<String> = []

    private var roamRefresh: Double { max(1000, roamRadius * 0.1) }
    private var roamRadius: Double {
        if case .roam(let r) = mode { return r }
        return .infinity
    }

    public init(targets: [Target], mode: TrackingMode, config: EngineConfig = .default) {
        self.config = config
        self.mode = mode
        self.targets = targets
        setUp()
    }

    /// Marks targets the device is already at when the engine starts: the places with a stored
    /// visit whose departure was never seen (the daemon restarted while parked there).
    ///
    /// A restored target counts as arrived from the start, so fixes inside its arrival radius
    /// send no second ARRIVED, `snapshot()` and `poll()` show it as arrived, and fixes confirming
    /// it is beyond the exit band send DEPARTED by the usual rule (`departureDwellFixes`
    /// consecutive fixes). The state is an explicit input rather than something the engine
    /// looks up, so a replay given the same input gives the same events.
    ///
    /// Call it before the first fix. Ids not tracked yet (roam admits targets as they come in
    /// range; a later `retarget` may bring them) wait until their target is tracked; ids of
    /// targets the engine never tracks are simply kept.
    ///
    /// ```swift
    /// var engine = ProximityEngine(targets: catalogue, mode: .roam(radius: 5000))
    /// engine.restoreArrivals(["big-banana"])   // parked there when the daemon stopped
    /// ```
    public mutating func restoreArrivals(_ targetIDs: Set<String>) {
        restoredPending.formUnion(targetIDs)
        applyRestoredArrivals()
    }

    /// Target ids restored as arrived whose targets are not tracked yet.
    public var pendingRestoredArrivals: Set<String> { restoredPending }

    private mutating func applyRestoredArrivals() {
        guard !restoredPending.isEmpty else { return }
        var applied: [String] = []
        for k in trackedOrder.indices {
            let id = targets[trackedOrder[k]].id
            if restoredPending.contains(id) {
                trackers[k].arrival.restoreArrived()
                applied.append(id)
            }
        }
        restoredPending.subtract(applied)
    }

    /// Replaces the target set and the mode; every tracker starts afresh.
    public mutating func retarget(_ targets: [Target], mode: TrackingMode) {
        self.targets = targets
        self.mode = mode
        setUp()
    }

    private mutating func setUp() {
        trackers = []
        trackedOrder = []
        isTracked = Array(repeating: false, count: targets.count)
        candidates = []
        candidatesCentre = nil
        switch mode {
        case .hunt:
            index = nil
            for i in targets.indices where targets[i].coordinate.isValid {
                trackers.append(TargetTracker(at: targets[i].coordinate))
                trackedOrder.append(i)
                isTracked[i] = true
            }
        case .roam:
            index = SpatialIndex(targets)
        }
        applyRestoredArrivals()
    }

    // MARK: - Input

    /// Feeds one fix; returns the events it causes, in order.
    public mutating func process(_ fix: Fix) -> [Event] {
        var out: [Event] = []
        process(fix, into: &out)
        return out
    }

    /// Feeds one fix, appending the events it causes to `out` (no allocation when none).
    public mutating func process(_ fix: Fix, into out: inout [Event]) {
        let before = out.count
        defer { stats.events += out.count - before }
        stats.fixes += 1
        let t = fix.time.timeIntervalSince1970
        advance(to: t, into: &out)
        switch filter.judge(fix, t: t, config: config) {
        case .outOfOrder:
            stats.outOfOrder += 1
        case .outlier:
            stats.outliers += 1
        case .noPosition:
            stats.noPosition += 1
            filter.noteTime(t)
            segmentStart = nil
            motion.reset()
            if gpsState != .nofix {
                setGPS(.nofix, time: fix.time, into: &out)
                invalidateTrends(time: fix.time, into: &out)
            }
        case .accept:
            accepted(fix, t: t, reset: false, into: &out)
        case .acceptAfterReset:
            accepted(fix, t: t, reset: true, into: &out)
        }
    }

    /// Lets time pass without a fix (the daemon calls this from a timer; replays rely on the
    /// next fix): once `staleAfterSeconds` pass without a trusted fix the GPS goes `stale`.
    public mutating func advance(to time: Date) -> [Event] {
        var out: [Event] = []
        advance(to: time.timeIntervalSince1970, into: &out)
        return out
    }

    private mutating func advance(to t: Double, into out: inout [Event]) {
        guard gpsState == .fix, let last = lastGoodTime, t - last > config.staleAfterSeconds else { return }
        let when = Date(timeIntervalSince1970: last + config.staleAfterSeconds)
        setGPS(.stale, time: when, into: &out)
        segmentStart = nil
        motion.reset()
        invalidateTrends(time: when, into: &out)
    }

    private mutating func accepted(_ fix: Fix, t: Double, reset: Bool, into out: inout [Event]) {
        stats.accepted += 1
        let here = fix.coordinate!
        if gpsState != .fix { setGPS(.fix, time: fix.time, into: &out) }
        if reset {
            segmentStart = nil
            motion.reset()
            invalidateTrends(time: fix.time, into: &out)
        }
        lastGoodTime = t
        motion.update(here, t: t, accuracy: fix.horizontalError, speed: fix.speed, course: fix.track, config: config)
        let velocity = motion.velocity
        let stillSlack = motion.stillSlack(config: config)
        let coherent = motion.stepIsCoherent
        let followsSpeed = motion.followsReportedSpeed
        let moving = motion.isMoving
        if case .roam = mode { refreshRoam(around: here) }
        let accuracy = fix.horizontalError
        // Decisions weigh a fix that states no error by the scatter learned for the receiver.
        let judgedAccuracy = accuracy ?? motion.learnedError
        let segment = segmentStart.flatMap { t - $0.1 <= config.passMaxGapSeconds ? $0.0 : nil }

        // The fix's end of every distance measured on this fix.
        let from = GeodesicPoint(here)
        if case .roam = mode {
            // Admit nearby candidates that came inside the radius.
            for i in candidates where !isTracked[i] {
                if Geodesic.distanceAndBearing(from, GeodesicPoint(targets[i].coordinate)).distance < roamRadius { admit(i) }
            }
        }
        var released = false
        for k in trackedOrder.indices {
            let i = trackedOrder[k]
            let g = Geodesic.distanceAndBearing(from, trackers[k].point)
            if case .roam = mode, g.distance > roamRadius * (1 + config.roamExitMarginFraction) {
                if trackers[k].announced {
                    let coldest = config.tiers.coldest
                    out.append(.proximity(.init(
                        time: fix.time, target: targets[i].ref, distance: g.distance,
                        bearing: g.bearing, tier: coldest.level, tierName: coldest.name,
                        trend: trackers[k].trend.trend, accuracy: accuracy, speed: fix.speed, eta: nil)))
                }
                isTracked[i] = false
                released = true
                continue
            }
            let previousDistance = trackers[k].distance
            let tierChanged = trackers[k].tier.update(distance: g.distance, accuracy: judgedAccuracy,
                                                      ladder: config.tiers, config: config,
                                                      stillSlack: stillSlack, coherent: coherent,
                                                      followsSpeed: followsSpeed, previousDistance: previousDistance)
            let closing = velocity.map { Self.closing($0, frame: trackers[k].frame, at: here, distance: g.distance, bearing: g.bearing) }
            let trendChanged = trackers[k].trend.add(t: t, distance: g.distance, accuracy: judgedAccuracy,
                                                    speed: fix.speed, moving: moving, closing: closing, config: config)
            var pass: Double? = nil
            if let start = segment, previousDistance.isFinite {
                pass = Self.passDistance(from: start, to: here, frame: trackers[k].frame,
                                         d0: previousDistance, d1: g.distance, radius: config.arrivalRadius)
            }
            let outcome = trackers[k].arrival.update(t: t, distance: g.distance, accuracy: judgedAccuracy,
                                                     passDistance: pass, stillSlack: stillSlack, config: config)
            trackers[k].distance = g.distance
            trackers[k].bearing = g.bearing
            trackers[k].time = t
            if tierChanged || trendChanged || !trackers[k].announced {
                trackers[k].announced = true
                out.append(proximity(trackers[k], target: targets[i], time: fix.time, fix: fix))
            }
            switch outcome {
            case .none: break
            case .arrived(let d):
                out.append(.arrived(.init(time: fix.time, target: targets[i].ref, distance: d)))
            case .departed(let d):
                out.append(.departed(.init(time: fix.time, target: targets[i].ref, distance: d)))
            }
        }
        if released {
            var k = 0
            while k < trackedOrder.count {
                if isTracked[trackedOrder[k]] {
                    k += 1
                } else {
                    trackedOrder.remove(at: k)
                    trackers.remove(at: k)
                }
            }
        }
        segmentStart = (here, t)
    }

    private func proximity(_ tr: TargetTracker, target: Target, time: Date, fix: Fix?) -> Event {
        let ladderIndex = tr.tier.index ?? config.tiers.index(for: tr.distance)
        let tier = config.tiers.tiers[ladderIndex]
        var eta: Double? = nil
        if tr.trend.trend == .hotter, let v = tr.trend.closingSpeed, v > config.trendSteadySpeed {
            eta = tr.distance / v
        }
        return .proximity(.init(
            time: time, target: target.ref, distance: tr.distance, bearing: tr.bearing,
            tier: tier.level, tierName: tier.name, trend: tr.trend.trend,
            accuracy: fix?.horizontalError, speed: fix?.speed, eta: eta))
    }

    private mutating func admit(_ i: Int) {
        // Keep the order sorted so output order never depends on arrival order into range.
        let pos = trackedOrder.firstIndex { $0 > i } ?? trackedOrder.count
        trackedOrder.insert(i, at: pos)
        var tracker = TargetTracker(at: targets[i].coordinate)
        if !restoredPending.isEmpty, restoredPending.remove(targets[i].id) != nil { tracker.arrival.restoreArrived() }
        trackers.insert(tracker, at: pos)
        isTracked[i] = true
    }

    private mutating func refreshRoam(around here: Coordinate) {
        if let c = candidatesCentre {
            // The trigonometry-free bound settles nearly every fix between refreshes.
            let half = roamRefresh / 2
            if LocalFrame.distanceUpperBound(c, here) < half || LocalFrame.approximateDistance(c, here) < half { return }
        }
        candidatesCentre = here
        candidates.removeAll(keepingCapacity: true)
        index?.forEachCandidate(within: roamRadius + roamRefresh, of: here) { candidates.append($0) }
        candidates.sort()
    }

    private mutating func setGPS(_ s: GPSState, time: Date, into out: inout [Event]) {
        gpsState = s
        out.append(.gps(.init(time: time, state: s)))
    }

    private mutating func invalidateTrends(time: Date, into out: inout [Event]) {
        for k in trackedOrder.indices {
            if trackers[k].trend.invalidate(), trackers[k].announced {
                out.append(proximity(trackers[k], target: targets[trackedOrder[k]], time: time, fix: nil))
            }
        }
    }

    /// The rate of approach to a tracked target from the receiver's credible velocity. The
    /// direction to the target comes from the tracker's flat frame (no trigonometry) within
    /// `flatFrameReach`, from the geodesic's bearing beyond.
    @inline(__always)
    static func closing(_ v: GroundVelocity, frame: LocalFrame, at here: Coordinate,
                        distance: Double, bearing: Double) -> ClosingRate {
        var ux: Double, uy: Double
        if distance <= flatFrameReach {
            // The flat frame's length differs from the geodesic distance by a thousandth at
            // most: near enough a unit vector, without a square root.
            guard distance > 0 else { return ClosingRate(rate: 0, variance: .infinity, across: 0, travelling: !v.isStanding) }
            let p = frame.project(here)
            let inv = 1 / distance
            return v.closing(towardsX: -p.x * inv, y: -p.y * inv, distance: distance, inverseDistance: inv)
        } else {
            (ux, uy) = sincosd(bearing)
        }
        return v.closing(towardsX: ux, y: uy, distance: distance)
    }

    /// Distance (metres) within which a tracker's flat frame gives the direction to its target
    /// well enough for a rate of approach: at this distance its directions are off by the
    /// meridians' convergence, a few tenths of a degree at most (at 60° of latitude), far inside
    /// the course's own error (`GroundVelocity.courseNoiseDegrees`).
    static let flatFrameReach = 20_000.0

    /// Closest approach (metres) to `target` on the straight segment between two fixes, when it
    /// lies strictly between them and could be inside `radius`; nil otherwise.
    static func passDistance(from a: Coordinate, to b: Coordinate, target: Coordinate,
                             d0: Double, d1: Double, radius: Double) -> Double? {
        passDistance(from: a, to: b, frame: LocalFrame(origin: target), d0: d0, d1: d1, radius: radius)
    }

    /// The same, in a flat frame centred on the target (kept per tracker, so its trigonometry is
    /// paid once per target rather than once per fix).
    static func passDistance(from a: Coordinate, to b: Coordinate, frame: LocalFrame,
                             d0: Double, d1: Double, radius: Double) -> Double? {
        let p = frame.project(a), q = frame.project(b)
        let ex = q.x - p.x, ey = q.y - p.y
        let len2 = ex * ex + ey * ey
        // Slow movement is left to dwell: only a segment longer than half the radius is a "pass".
        guard len2 > radius * radius / 4 else { return nil }
        // A point within `radius` of the segment needs d0 + d1 <= length + 2·radius.
        guard d0 + d1 <= len2.squareRoot() + 2 * radius + 1 else { return nil }
        let u = -(p.x * ex + p.y * ey) / len2
        guard u > 0, u < 1 else { return nil }
        let cx = p.x + u * ex, cy = p.y + u * ey
        return (cx * cx + cy * cy).squareRoot()
    }

    // MARK: - Queries

    /// One PROXIMITY per tracked target with its current state (the socket's `poll`).
    public func poll() -> [Event] {
        trackedOrder.indices.compactMap { k in
            let tr = trackers[k]
            guard tr.distance.isFinite else { return nil }
            return proximity(tr, target: targets[trackedOrder[k]], time: Date(timeIntervalSince1970: tr.time),
                             fix: filter.last)
        }
    }

    /// The tracked targets' current state (for `status`).
    public func snapshot() -> [TrackedTarget] {
        trackedOrder.indices.compactMap { k in
            let tr = trackers[k], i = trackedOrder[k]
            guard tr.distance.isFinite else { return nil }
            let idx = tr.tier.index ?? config.tiers.index(for: tr.distance)
            return TrackedTarget(target: targets[i].ref, distance: tr.distance, bearing: tr.bearing,
                                 tier: config.tiers.tiers[idx], trend: tr.trend.trend,
                                 arrived: tr.arrival.isArrived, coordinate: targets[i].coordinate)
        }
    }

    public var trackedCount: Int { trackedOrder.count }
}
