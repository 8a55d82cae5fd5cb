#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// The reply to `status`: a value built from snapshots of the engine, the socket and the log,
/// taken under their locks and encoded after they are released.
public struct StatusReply: FixedClassMessage, Equatable {
    public static let wireClass = "STATUS"

    public var time: Date
    public var release: String
    public var uptimeS: Double
    public var gps: GPS
    public var tracking: Tracking
    public var targets: [TargetState]
    public var counters: Counters
    public var latencyUs: Latency
    var visits: Visits?
    public var sequence: Sequence?
    public var socket: Socket?
    public var log: Log?
    public var config: String?
    /// The daemon's database file; only for clients allowed to write.
    public var database: String?
    /// Companion services that report to the daemon (`report`), by name.
    public var services: [Service]?
    /// Tracked targets left out of `targets` (which holds the nearest ``Limits/statusTargets``);
    /// `targets` pages through them all. Absent when none are left out. Since minor 5.
    public var targetsMore: Int?
    /// Why the daemon refuses changes to its database (the file was deleted or replaced while
    /// open). Since minor 5.
    public var databaseError: String?
    /// Friends on the radar, nearest first (absent when none). Since minor 6.
    public var friends: [Friend]?
    /// The last start after an unclean stop (a power cut, a crash) and what it cost; absent
    /// when every stop so far was clean. Since minor 8.
    public var uncleanStop: UncleanStop?
    /// What the feed of finds dropped (absent without a database). Since issue 28.
    public var feed: Feed?

    public init(time: Date, release: String = ProtocolVersion.release, uptimeS: Double, gps: GPS,
                tracking: Tracking, targets: [TargetState], counters: Counters, latencyUs: Latency,
                visits: Visits? = nil, sequence: Sequence? = nil, socket: Socket? = nil, log: Log? = nil, config: String? = nil, database: String? = nil,
                services: [Service]? = nil, targetsMore: Int? = nil, databaseError: String? = nil,
                friends: [Friend]? = nil, uncleanStop: UncleanStop? = nil, feed: Feed? = nil) {
        self.time = time
        self.release = release
        self.uptimeS = Finite.round(uptimeS, 0)
        self.gps = gps
        self.tracking = tracking
        self.targets = targets
        self.counters = counters
        self.latencyUs = latencyUs
        self.visits = visits
        self.sequence = sequence
        self.socket = socket
        self.log = log
        self.config = config
        self.database = database
        self.services = services
        self.targetsMore = targetsMore
        self.databaseError = databaseError
        self.friends = friends
        self.uncleanStop = uncleanStop
        self.feed = feed
    }

    public struct GPS: Codable, Sendable, Equatable {
        /// connecting, connected or lost.
        public var link: String
        public var reason: String?
        /// fix, nofix, stale, lost or unknown.
        public var state: String
        public var lastFix: LastFix?
        public init(link: String, reason: String? = nil, state: String, lastFix: LastFix? = nil) {
            self.link = link
            self.reason = reason
            self.state = state
            self.lastFix = lastFix
        }
    }

    /// The last fix the engine accepted; under class FIX, without the ages, the live FIX line
    /// too (`FixEvent`).
    public struct LastFix: Codable, Sendable, Equatable {
        public var time: Date
        public var lat: Double
        public var lon: Double
        public var mode: Int
        public var accuracyM: Double?
        public var speedMps: Double?
        /// Course over ground, degrees true, when the receiver reports one (live views turn
        /// their arrow by it while moving).
        public var trackDeg: Double?
        /// Satellites used in the fix, when the receiver reports them.
        public var satellites: Int?
        /// Seconds since the fix arrived, on the daemon's monotonic clock: how old it is,
        /// whatever the receiver's or this box's wall clock says. Since minor 8.
        public var ageS: Double?
        /// The fix's time minus this box's wall clock when it arrived: far from 0 when the box
        /// booted without a real-time clock or a recording is replayed ("clock off by …").
        /// Never used to judge an age. Since minor 8.
        public var clockOffsetS: Double?
        public init(time: Date, lat: Double, lon: Double, mode: Int, accuracyM: Double? = nil, speedMps: Double? = nil,
                    trackDeg: Double? = nil, satellites: Int? = nil, ageS: Double? = nil, clockOffsetS: Double? = nil) {
            self.time = time
            self.lat = Finite.round(lat, 7)
            self.lon = Finite.round(lon, 7)
            self.mode = mode
            self.accuracyM = Finite.round(accuracyM, 1)
            self.speedMps = Finite.round(speedMps, 2)
            self.trackDeg = Finite.round(trackDeg, 1)
            self.satellites = satellites
            self.ageS = Finite.round(ageS.map { max(0, $0) }, 1)
            self.clockOffsetS = Finite.round(clockOffsetS, 0)
        }
        public var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }
    }

    public struct Tracking: Codable, Sendable, Equatable {
        public var mode: String
        public var radiusM: Double?
        var filter: String?
        public var candidates: Int
        public var tracked: Int
        /// The tier ladder's names, coldest (level 0) first: a target's `tier` indexes it, and
        /// `tiers.count - 1` is the hottest level (a gauge's full scale). Since minor 4.
        public var tiers: [String]?
        public init(mode: String, radiusM: Double? = nil, filter: String? = nil, candidates: Int, tracked: Int,
                    tiers: [String]? = nil) {
            self.mode = mode
            self.radiusM = Finite.round(radiusM, 0)
            self.filter = filter
            self.candidates = candidates
            self.tracked = tracked
            self.tiers = tiers
        }
    }

    public struct TargetState: Codable, Sendable, Equatable {
        public var target: TargetRef
        public var distanceM: Double
        public var bearingDeg: Double
        public var tier: Int
        public var tierName: String
        public var trend: String
        public var arrived: Bool
        /// The target's own position (since 1.9), seven decimals (about a centimetre): where
        /// the place is, not where the fix, the distance and the rounded bearing put it.
        var lat: Double?
        var lon: Double?
        /// Why a place hunted by its id is gone (`demolished`, `withdrawn`, `archived`, …; since
        /// 1.12), absent while it stands: a roam never tracks one.
        public var gone: String?
        public init(target: TargetRef, distanceM: Double, bearingDeg: Double, tier: Int, tierName: String,
                    trend: String, arrived: Bool, at coordinate: Coordinate? = nil, gone: String? = nil) {
            self.target = target
            self.distanceM = Finite.round(distanceM, 3)
            self.bearingDeg = Finite.round(bearingDeg, 1)
            self.tier = tier
            self.tierName = tierName
            self.trend = trend
            self.arrived = arrived
            self.lat = coordinate.map { Finite.round($0.latitude, 7) }
            self.lon = coordinate.map { Finite.round($0.longitude, 7) }
            self.gone = gone
        }
        /// The target's own position, when the daemon gave it (1.9 on).
        public var coordinate: Coordinate? {
            guard let lat, let lon else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    public struct Counters: Codable, Sendable, Equatable {
        public var fixes: Int
        var fixesAccepted: Int
        var fixesUntimed: Int
        public var outliers: Int
        var outOfOrder: Int
        public var events: Int
        var visitErrors: Int
        public init(fixes: Int, fixesAccepted: Int, fixesUntimed: Int, outliers: Int, outOfOrder: Int,
                    events: Int, visitErrors: Int) {
            self.fixes = fixes
            self.fixesAccepted = fixesAccepted
            self.fixesUntimed = fixesUntimed
            self.outliers = outliers
            self.outOfOrder = outOfOrder
            self.events = events
            self.visitErrors = visitErrors
        }
    }

    public struct Latency: Codable, Sendable, Equatable {
        public var samples: Int
        public var p50: Double
        public var p99: Double
        var max: Double
        public init(samples: Int, p50: Double, p99: Double, max: Double) {
            self.samples = samples
            self.p50 = Finite.round(p50, 1)
            self.p99 = Finite.round(p99, 1)
            self.max = Finite.round(max, 1)
        }
    }

    public struct Socket: Codable, Sendable, Equatable {
        var path: String
        public var clients: Int
        public var clientsTotal: Int
        public var dropped: Int
        var linesIn: Int
        var linesOut: Int
        /// The client cap in force (the configured one, lowered to fit the open-file limit).
        var maxClients: Int?
        /// Connections refused at accept: over the client cap, in all or for one user.
        var connectionsRefused: Int?
        /// Write commands refused: their user was over its write rate.
        var writesRefused: Int?
        public init(path: String, clients: Int, clientsTotal: Int, dropped: Int, linesIn: Int, linesOut: Int,
                    maxClients: Int? = nil, connectionsRefused: Int? = nil, writesRefused: Int? = nil) {
            self.path = path
            self.clients = clients
            self.clientsTotal = clientsTotal
            self.dropped = dropped
            self.linesIn = linesIn
            self.linesOut = linesOut
            self.maxClients = maxClients
            self.connectionsRefused = connectionsRefused
            self.writesRefused = writesRefused
        }
    }

    public struct Log: Codable, Sendable, Equatable {
        public var path: String
        public var writing: Bool
        public var error: String?
        var linesWritten: Int
        var linesLost: Int
        /// Lines waiting for the disk (the log's writer has its own thread and queue).
        public var queued: Int?
        /// Lines given up because too many waited; each hole has a GAP line in the log.
        var dropped: Int?
        /// GAP lines written.
        var gaps: Int?
        /// Seconds the write in progress has not returned (a stalled disk), from 1 s on.
        var stalledS: Double?
        /// `fdatasync`s of the log since the start: grouped (a second of events at most is at
        /// risk), at once after an ARRIVED, DEPARTED or RECORD, none while nothing is logged.
        /// Since minor 8.
        public var syncs: Int?
        /// Syncs of the database since the start (each covers every commit before it).
        /// Since minor 8.
        public var databaseSyncs: Int?
        public init(path: String, writing: Bool, error: String? = nil, linesWritten: Int, linesLost: Int,
                    queued: Int? = nil, dropped: Int? = nil, gaps: Int? = nil, stalledS: Double? = nil,
                    syncs: Int? = nil, databaseSyncs: Int? = nil) {
            self.syncs = syncs
            self.databaseSyncs = databaseSyncs
            self.path = path
            self.writing = writing
            self.error = error
            self.linesWritten = linesWritten
            self.linesLost = linesLost
            self.queued = queued
            self.dropped = dropped
            self.gaps = gaps
            self.stalledS = stalledS.map { ($0 * 10).rounded() / 10 }
        }
    }
}

/// Keeps non-finite numbers off the wire (JSON has none) and rounds to the wire's resolution.
/// Public for the bridge's broker messages, which round the same way.
public enum Finite {
    public static func round(_ x: Double?, _ decimals: Int) -> Double? {
        guard let x, x.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (x * scale).rounded() / scale
        return r.isFinite ? r : x
    }

    public static func round(_ x: Double, _ decimals: Int) -> Double { round(Optional(x) as Double?, decimals) ?? 0 }
}
