/// `hotcold-mqtt.toml`: where the daemon is, which broker, which layout. Every default here is
/// the one `config/hotcold-mqtt.toml` documents.
public struct BridgeConfiguration: Sendable, Equatable {
    public struct Daemon: Sendable, Equatable {
        /// The daemon's Unix socket.
        public var socket = "/run/hotcold/hotcold.sock"
        /// Longest wait, in seconds, between attempts to reach the daemon (doubling from 0.1 s).
        public var reconnectMax = 10.0
    }

    public struct Broker: Sendable, Equatable {
        var host = "localhost"
        public var port = 1883
        /// Empty: `hotcold-<user>-<device>`. Must stay the same across restarts: the broker
        /// keeps the persistent session under it.
        var clientID = ""
        var keepalive = 60
        var username = ""
        /// A file holding the password (first line), or `credential:NAME` for
        /// `$CREDENTIALS_DIRECTORY/NAME` (systemd's `LoadCredential=`). Empty: no password.
        var passwordFile = ""
        var maxInflight = 20
        public var reconnectMin = 1
        public var reconnectMax = 30
    }

    public struct TLS: Sendable, Equatable {
        var enabled = false
        /// Empty: the system's trusted CAs.
        var caFile = ""
        /// Client certificate and key for brokers that authenticate by certificate; either may
        /// be `credential:NAME`.
        public var certFile = ""
        public var keyFile = ""
    }

    public struct Topics: Sendable, Equatable {
        public var layout: TopicLayout = .hotcold
        /// Empty: `hotcold` or `owntracks` after the layout.
        var prefix = ""
        var user = "hotcold"
        /// Empty: this machine's host name.
        var device = ""
        /// OwnTracks tracker id (`tid`); empty: the device's last two characters.
        var trackerID = ""
    }

    public struct Bridge: Sendable, Equatable {
        /// Where the acknowledged sequence number is kept. Empty: `$STATE_DIRECTORY` (systemd's
        /// `StateDirectory=`), else `/var/lib/hotcold-mqtt`.
        public var stateDirectory = ""
        /// Seconds between `status` requests: the nearest target, the retained state and the
        /// phone's regions follow it. Positions do not: they go out as the fixes come.
        public var statusInterval = 5.0
        /// Longest silence about the position while the car stands, seconds: the latest fix
        /// again (a friend's radar calls a car silent for 300 s stale).
        var heartbeat = 240.0
        /// Unacknowledged messages at most; beyond it the bridge stops reading the daemon and
        /// catches up from its log later (`watch` `since`).
        var maxPending = 10_000
    }

    /// Home Assistant MQTT discovery (layout `hotcold` only).
    public struct HomeAssistant: Sendable, Equatable {
        public var enabled = false
        /// Home Assistant's `discovery_prefix`; its birth message comes on `<prefix>/status`.
        public var prefix = "homeassistant"
        /// Seconds after which Home Assistant shows a sensor's state as unknown without news
        /// (`expire_after`): state older than this is never believed. The nearest target is
        /// sent again every half of it while nothing changes.
        var expireAfter = 1800
    }

    /// OwnTracks waypoints pushed to a phone (either layout).
    public struct OwnTracks: Sendable, Equatable {
        /// A phone's base topic (`owntracks/<user>/<device>`); empty: push nothing.
        var phoneTopic = ""
        /// How many of the nearest tracked targets it gets (iOS watches at most 20 regions).
        public var waypoints = 20
        /// Each region's radius, metres (hotcold's arrival distance).
        public var radius = 100
        /// How the phone's regions are removed: `android` (clearWaypoints and the whole set;
        /// right for an iPhone too, but clears the phone's own regions) or `ios` (each leaver
        /// removed by itself, the phone's own regions kept; for iPhones only).
        var phoneApp: PhoneRegions.App = .android
        /// Seconds at least between two changes of the phone's regions.
        var phoneInterval = 60.0
    }

    /// Friends (issue 19): whose positions and feed this bridge follows beyond the daemon's
    /// `follow` list.
    struct Friends: Sendable, Equatable {
        /// A club's topic prefix (`hotcold/club-name`): every device under it that the broker
        /// lets this bridge read counts as followed (`<club>/USER/DEVICE/…`). Empty: none.
        var club = ""
        /// Bytes of feed items and likes (their journal lines) waiting for the daemon at most;
        /// beyond it a new one is refused and counted. Bounds the journal on disk too.
        var inboxBytes = FriendInbox.defaultMaximumBytes
    }

    /// What this device publishes: its user's choice (`SharePolicy`).
    struct Share: Sendable, Equatable {
        var share: SharePolicy = .positions
        /// Ratings and notes (RECORD events) shared as feed items of kind `record`.
        var records = true
    }

    public var daemon = Daemon()
    public var broker = Broker()
    public var tls = TLS()
    public var topics = Topics()
    public var bridge = Bridge()
    public var homeAssistant = HomeAssistant()
    public var ownTracks = OwnTracks()
    var friends = Friends()
    var share = Share()

    public init() {}
}
