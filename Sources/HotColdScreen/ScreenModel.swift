#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HotColdCore
import HotColdProtocol

/// Everything the live screen shows, built from the daemon's `STATUS` replies and events and
/// nothing else: no I/O, no clock (the shell sets `now`), so the renderer's tests build one by hand.
///
/// Values are checked here, once, as they arrive: names are made printable and bounded, numbers
/// that are not finite or out of range are dropped, so the renderer can trust what it draws.
public struct ScreenModel: Sendable, Equatable {
    /// The screen's link to hotcoldd.
    public enum Link: Sendable, Equatable {
        case connecting
        case connected
        /// The daemon went away (the reason in our words); the shell is retrying.
        case gone(String)
    }

    /// The receiver as the daemon last reported it.
    public struct GPSView: Sendable, Equatable {
        /// fix, nofix, stale, lost or unknown.
        public var state = "unknown"
        /// The daemon's link to gpsd: connecting, connected or lost.
        var gpsdLink: String?
        public var mode: Int?
        public var satellites: Int?
        public var accuracyM: Double?
        public var speedMps: Double?
        var courseDeg: Double?
        /// The receiver's time of the last fix (tells a new fix from the same one again).
        public var fixTime: Date?
        /// When the screen learnt of that fix, on the shell's clock: the age shown counts from
        /// here, so a receiver whose clock is off does not make every fix look old.
        public var fixSeenAt: Date?
        public init() {}
    }

    /// One tracked target.
    public struct TargetView: Sendable, Equatable {
        public var id: String
        public var name: String
        public var distanceM: Double
        public var bearingDeg: Double
        public var tier: Int
        public var tierName: String
        public var trend: Trend
        public var etaS: Double?
        public var arrived: Bool
        /// The engine's rate of approach (m/s) from its last event about this target: distance
        /// over ETA. Each status's distance is divided by it, so the ETA is as fresh as the
        /// distance, not as old as the last event.
        var approachMps: Double?

        /// A followed device on the friend radar (shown among the others, never the automatic focus).
        public var isFriend: Bool { id.hasPrefix("friend:") }

        public init(id: String, name: String, distanceM: Double, bearingDeg: Double, tier: Int, tierName: String,
                    trend: Trend, etaS: Double? = nil, arrived: Bool = false) {
            self.id = id
            self.name = name
            self.distanceM = distanceM
            self.bearingDeg = bearingDeg
            self.tier = tier
            self.tierName = tierName
            self.trend = trend
            self.etaS = etaS
            self.arrived = arrived
        }
    }

    public var link: Link = .connecting
    /// The socket path, for the footer.
    public var socketPath: String
    /// The shell's wall clock at the last update.
    public var now: Date
    public var gps = GPSView()
    /// `hunt` or `roam`, from `STATUS`.
    var trackingMode: String?
    public private(set) var targets: [String: TargetView] = [:]
    /// The target the user picked with the focus keys, while it is tracked.
    public private(set) var chosenFocusID: String?
    /// The hottest tier level: the gauge's full scale. The daemon's ladder sets it (`STATUS`
    /// `tracking.tiers`, protocol minor 4); before that, or from an older daemon, it is the
    /// default ladder's 7 (`burning`), raised when hotter tiers are seen.
    public private(set) var hottestTier = 7

    /// Most targets kept (a roam can track hundreds; a screen shows a dozen).
    static let maximumTargets = 2000
    /// Below this speed (m/s) the receiver counts as standing and the arrow shows compass
    /// bearings: consumer receivers report ~1 m/s of speed while still, and their course then
    /// wanders at random.
    public static let movingSpeed = 1.5
    /// Highest tier level accepted from the wire.
    public static let maximumTier = 99

    public init(socketPath: String, now: Date) {
        self.socketPath = socketPath
        self.now = now
    }

    // MARK: - What to show

    /// The target shown large: the one the user picked; else in a hunt the nearest hunted
    /// target (in a hunt the tracked targets are the hunted ones); else, while moving, the
    /// nearest target ahead of the car (within 90° of the course), so one just passed gives
    /// way to the next; else the nearest.
    public var focus: TargetView? {
        if let id = chosenFocusID, let t = targets[id] { return t }
        // Places first: a friend is the focus only when nothing else is tracked (n and p reach them).
        let all = sortedTargets, places = all.filter { !$0.isFriend }
        let sorted = places.isEmpty ? all : places
        if trackingMode != "hunt", let course {
            if let ahead = sorted.first(where: { Self.isAhead(bearing: $0.bearingDeg, course: course) }) { return ahead }
        }
        return sorted.first
    }

    /// The other targets, nearest first.
    public var others: [TargetView] {
        let f = focus?.id
        return sortedTargets.filter { $0.id != f }
    }

    /// Moves the focus to the next (`step` 1) or previous (-1) target in distance order,
    /// from the one shown now; it stays there until that target is no longer tracked.
    public mutating func cycleFocus(by step: Int) {
        let sorted = sortedTargets
        guard !sorted.isEmpty else { return }
        let here = focus.flatMap { f in sorted.firstIndex { $0.id == f.id } } ?? 0
        let n = sorted.count
        chosenFocusID = sorted[((here + step) % n + n) % n].id
    }

    /// Back to the automatic focus.
    public mutating func clearFocusChoice() { chosenFocusID = nil }

    static func isAhead(bearing: Double, course: Double) -> Bool {
        var d = (bearing - course).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d <= 90 || d >= 270
    }

    /// True when what the screen shows is not current: no fix now (stale, lost, none), or the
    /// last fix older than ``staleAfter`` seconds. The renderer dims it and says how old.
    public var isStale: Bool {
        guard link == .connected else { return false }
        if gps.state != "fix" { return true }
        if let gpsdLink = gps.gpsdLink, gpsdLink != "connected" { return true }
        return (fixAge ?? 0) > Self.staleAfter
    }

    /// Seconds after which a fix counts as old on screen.
    public static let staleAfter = 5.0

    var sortedTargets: [TargetView] {
        targets.values.sorted { ($0.distanceM, $0.name, $0.id) < ($1.distanceM, $1.name, $1.id) }
    }

    /// The course over ground while moving, else nil (the arrow then shows compass bearings).
    public var course: Double? {
        guard let speed = gps.speedMps, speed >= Self.movingSpeed else { return nil }
        return gps.courseDeg
    }

    /// Seconds since the screen learnt of the last fix.
    public var fixAge: Double? { gps.fixSeenAt.map { now.timeIntervalSince($0) } }

    // MARK: - Updates

    /// The daemon answered a `status`: its tracked set replaces ours, and each ETA is worked out
    /// again from the new distance (see ``etaFor(_:)``).
    public mutating func apply(_ status: StatusReply) {
        link = .connected
        gps.state = Self.word(status.gps.state)
        gps.gpsdLink = Self.word(status.gps.link)
        if let f = status.gps.lastFix {
            gps.mode = (0...3).contains(f.mode) ? f.mode : nil
            gps.satellites = f.satellites.flatMap { (0...999).contains($0) ? $0 : nil }
            gps.accuracyM = Self.nonNegative(f.accuracyM)
            gps.speedMps = Self.nonNegative(f.speedMps)
            gps.courseDeg = f.trackDeg.flatMap { $0.isFinite ? $0 : nil }
            noteFix(at: f.time)
        }
        trackingMode = Self.word(status.tracking.mode)
        if let tiers = status.tracking.tiers, (1...Self.maximumTier + 1).contains(tiers.count) {
            hottestTier = tiers.count - 1
        }
        var next: [String: TargetView] = [:]
        for t in status.targets.prefix(Self.maximumTargets) {
            guard var v = Self.view(t.target, distance: t.distanceM, bearing: t.bearingDeg, tier: t.tier,
                                    tierName: t.tierName, trend: Trend(rawValue: t.trend) ?? .unknown) else { continue }
            v.arrived = t.arrived
            v.approachMps = targets[v.id]?.approachMps
            next[v.id] = v
            hottestTier = max(hottestTier, v.tier)
        }
        // Friends beside places: those with a current distance (a stale one is not shown as current).
        for f in (status.friends ?? []).prefix(Self.maximumTargets) {
            guard let d = f.distanceM, let b = f.bearingDeg, let tier = f.tier, let tierName = f.tierName,
                  let who = FriendID(parsing: f.who),
                  var v = Self.view(TargetRef(id: who.targetID, name: f.name, kind: .friend), distance: d, bearing: b,
                                    tier: tier, tierName: tierName, trend: Trend(rawValue: f.trend) ?? .unknown) else { continue }
            v.arrived = f.arrived
            v.approachMps = targets[v.id]?.approachMps
            next[v.id] = v
        }
        let etas = next.mapValues { etaFor($0) }
        for (id, eta) in etas { next[id]?.etaS = eta }
        targets = next
        if let id = chosenFocusID, targets[id] == nil { chosenFocusID = nil }
    }

    /// The time to `t` at the rate it is being approached: the engine's own rate from its last
    /// event, else (the screen started after that event) the speed along the bearing while
    /// moving. None unless the trend says hotter, or once arrived.
    func etaFor(_ t: TargetView) -> Double? {
        guard t.trend == .hotter, !t.arrived else { return nil }
        var rate = t.approachMps
        if rate == nil, let speed = gps.speedMps, let course {
            rate = speed * cos((t.bearingDeg - course) * .pi / 180)
        }
        guard let rate, rate > 0.1 else { return nil }
        let eta = t.distanceM / rate
        return eta.isFinite ? eta : nil
    }

    /// An event arrived on the watch (as read from its line: at the wire's resolution).
    public mutating func apply(_ event: Event) {
        link = .connected
        switch event {
        case .proximity(let p):
            guard var v = Self.view(p.target, distance: p.distance, bearing: p.bearing, tier: p.tier,
                                    tierName: p.tierName, trend: p.trend) else { return }
            guard targets[v.id] != nil || targets.count < Self.maximumTargets else { return }
            v.arrived = targets[v.id]?.arrived ?? false
            v.etaS = p.eta.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            v.approachMps = v.etaS.flatMap { $0 > 0 ? v.distanceM / $0 : nil }
            targets[v.id] = v
            hottestTier = max(hottestTier, v.tier)
            if let s = Self.nonNegative(p.speed) { gps.speedMps = s }
            if let a = Self.nonNegative(p.accuracy) { gps.accuracyM = a }
            // The fix's age comes from STATUS's last fix only: an event may be the engine's
            // re-evaluation (a new target set, staleness) at a time that is no new fix.
        case .arrived(let p):
            targets[p.target.id]?.arrived = true
        case .departed(let p):
            targets[p.target.id]?.arrived = false
        case .gps(let g):
            gps.state = g.state.rawValue
        }
    }

    /// The connection to the daemon failed or closed: nothing it said still holds.
    public mutating func lose(_ reason: String) {
        link = .gone(DisplayWidth.printable(reason, maxCharacters: 120))
        targets = [:]
        gps = GPSView()
        trackingMode = nil
        chosenFocusID = nil
    }

    private mutating func noteFix(at time: Date) {
        if gps.fixTime != time {
            gps.fixTime = time
            gps.fixSeenAt = now
        }
    }

    static func view(_ ref: TargetRef, distance: Double, bearing: Double, tier: Int, tierName: String,
                     trend: Trend) -> TargetView? {
        guard distance.isFinite, distance >= 0, bearing.isFinite else { return nil }
        let name = ref.kind == .friend ? "\(ref.name) (friend)" : ref.name
        return TargetView(id: ref.id, name: DisplayWidth.printable(name),
                          distanceM: distance, bearingDeg: bearing,
                          tier: max(0, min(maximumTier, tier)), tierName: word(tierName), trend: trend)
    }

    static func nonNegative(_ x: Double?) -> Double? { x.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }

    /// A short word from the wire (a state, a tier name), printable and bounded.
    static func word(_ s: String) -> String { DisplayWidth.printable(s, maxCharacters: 24) }
}
