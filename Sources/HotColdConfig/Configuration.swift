import HotColdCore

/// Everything `config/hotcoldd.toml` can set. Every field has the default documented there.
public struct Configuration: Sendable, Equatable {
    public struct GPSD: Sendable, Equatable {
        public var host = "localhost"
        public var port = 2947
    }
    public struct Socket: Sendable, Equatable {
        public var path = "/run/hotcold/hotcold.sock"
        public var mode: UInt16 = 0o660
        /// Users and groups whose clients may change state (hunt, roam, seen, rate, ...).
        /// root and the daemon's own user always may.
        public var allowedUsers: [String] = []
        public var allowedGroups: [String] = ["hotcold"]
        /// Users whose connections may act for another user (`act_for`): `hotcold-web`, which
        /// writes a paired phone's notes as the user who paired it, and `hotcold-mqtt`, which is
        /// sent the records of the user it shares (`[topics] user`). Matched by name when a
        /// request comes (a systemd dynamic user exists only while its service runs). root and
        /// the daemon's own user always may.
        public var proxies: [String] = ["hotcold-web", "hotcold-mqtt"]
        /// Clients at once, in all (the daemon lowers it to fit its open-file limit).
        public var maxClients = 1024
        /// Clients at once from one Unix user.
        public var maxClientsPerUser = 64
        /// Write commands one user may send at once after a pause, and per second after that.
        public var writeBurst = 20
        public var writesPerSecond: Double = 5
    }
    /// What one user may store through the daemon (see `StoreQuotas`).
    public struct Quotas: Sendable, Equatable {
        public var locationsPerUser = 10_000
        public var observationsPerUser = 100_000
        public var pendingSubmissionsPerUser = 1_000
        public var notesPerUser = 10_000
        public var manualVisitsPerUser = 100_000
        public var importedPlacesPerUser = 200_000
        /// Uploads in progress and exports not yet downloaded, per user.
        public var stagedMiBPerUser = 256
        /// An upload or download idle this long is dropped.
        public var stagedIdleSeconds = 600
        /// Free space kept on the database's filesystem: staging that would eat into it is refused.
        public var freeSpaceReserveMiB = 64
    }
    public struct Log: Sendable, Equatable {
        public var path = "/var/log/hotcold/events.jsonl"
    }
    public struct Store: Sendable, Equatable {
        public var database = "/var/lib/hotcold/hotcold.sqlite"
        /// Catalogue loaded into an empty database; empty means the bundled one.
        public var catalogue = ""
    }
    public struct Tracking: Sendable, Equatable {
        public enum Mode: String, Sendable, Equatable { case hunt, roam }
        public var mode: Mode = .roam
        public var roamRadius: Double = 10_000
        /// The widest roam radius accepted: half the Earth's circumference reaches everywhere.
        public static let maxRoamRadius = 20_000_000.0
        /// Kinds of stored places roamed among (empty: every kind).
        public var roamKinds: [String] = ["bigthing"]
        /// Hunt targets: `LAT,LON[,NAME]` or stored place ids.
        public var targets: [String] = []
        /// Whether a start resumes the last `hunt` or `roam` a client set (kept in the state
        /// directory) instead of the mode above, as long as this section is unchanged since.
        public var restore = true
    }
    public struct API: Sendable, Equatable {
        public var baseURL = ""
        public var token = ""
        public var syncIntervalSeconds: Double = 3600
        /// Allows an `http://` base URL, to a loopback address only (the reference server in
        /// tests); otherwise the token goes over `https://` only.
        public var allowHTTPLoopback = false
        /// The longest interval accepted (30 days): longer ones are typos, and the sync loop
        /// turns the interval into nanoseconds.
        static let maxSyncIntervalSeconds = 30 * 86_400.0
    }

    /// The friend radar (`[friends]`): how long a silent friend stays current, and on the radar.
    public struct Friends: Sendable, Equatable {
        /// Seconds of silence before a friend's trend is `unknown` and it shows `stale`.
        public var staleAfterSeconds: Double = 300
        /// Seconds of silence before a friend leaves the radar (at least `staleAfterSeconds`).
        public var forgetAfterSeconds: Double = 3600
    }

    public var gpsd = GPSD()
    public var socket = Socket()
    public var quotas = Quotas()
    public var log = Log()
    public var store = Store()
    public var tracking = Tracking()
    public var api = API()
    public var engine = EngineConfig()
    public var friends = Friends()

    public init() {}
}
