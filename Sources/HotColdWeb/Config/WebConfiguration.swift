/// `hotcold-web.toml`: where the daemon is, where to listen, the bounds. Every default here is
/// the one `config/hotcold-web.toml` documents.
public struct WebConfiguration: Sendable, Equatable {
    public struct Daemon: Sendable, Equatable {
        /// The daemon's Unix socket (read access is enough to show the page; writes need
        /// hotcold-web's own user to be a writer there too).
        public var socket = "/run/hotcold/hotcold.sock"
        /// The daemon's configuration, read only for `[socket] allowed_users`/`allowed_groups`:
        /// a paired device may write only when the user who paired it is a writer by that rule.
        /// Missing file: the daemon's defaults (group "hotcold").
        public var config = "/usr/local/etc/hotcold/hotcoldd.toml"
    }

    public struct Listen: Sendable, Equatable {
        /// An IP address (never a host name: the unit allows exactly this address).
        public var address = "127.0.0.1"
        public var port = 8470
        /// What a paired device opens, e.g. "http://10.42.0.1:8470"; empty: from address and port.
        var publicURL = ""
        /// Host names (besides the listening address, `public_url`'s host, `localhost` and the
        /// loopback addresses) a request's `Host` may name; any other is refused (421), so a
        /// page from another site whose name was made to resolve to the box (DNS rebinding)
        /// reads and writes nothing.
        public var hosts: [String] = []
    }

    public struct Live: Sendable, Equatable {
        /// Browsers following the live stream at once; the next gets 503.
        public var maxClients = 16
        /// Live streams one paired device may hold at once (a phone with a few tabs); this
        /// machine's own browsers are limited by `maxClients` only.
        public var maxPerDevice = 4
        /// Lines waiting for one browser; past this the browser is dropped (it reconnects and
        /// resumes with Last-Event-ID, so nothing is lost).
        var clientQueue = 256
        /// Seconds between STATUS pushes to each browser (distances move between events; the fix
        /// reaches the page within about this long).
        public var statusInterval = 0.25
        /// Seconds a live stream may go without its connection taking what was written (the
        /// browser stopped reading and its buffers are full) before it is cut.
        var stallSeconds = 3.0
        /// Bytes the kernel may hold unsent for one live stream (SO_SNDBUF, which Linux doubles),
        /// and hotcold-web's own buffer before the stream counts as not draining.
        var streamSendBuffer = 8 << 10
        /// Seconds a live stream may go without the page saying it reads it (it says so every
        /// two seconds while frames arrive) before it is cut.
        var readSeconds = 8.0
    }

    public struct Access: Sendable, Equatable {
        /// Where paired devices' tokens are kept (mode 0600) and the control socket lives.
        public var stateDirectory = "/var/lib/hotcold-web"
        /// The Unix socket `hotcold web pair` talks to.
        public var controlSocket = "/run/hotcold-web/control.sock"
        /// Days a pairing lasts (the session the pairing link hands the device).
        public var tokenDays = 90
        /// Minutes a pairing link may be opened in; it works once.
        public var linkMinutes = 10
        /// Connections open at once, all told (the unit's LimitNOFILE= leaves room for them).
        public var maxConnections = 512
        /// Connections from one address that have not (yet) shown a paired device's cookie.
        var maxUnpairedPerAddress = 32
        /// Seconds a connection may take to send a request's head, and may stay idle between
        /// requests; a live stream being answered is not idle.
        var idleTimeout = 10.0
        /// Paired devices kept; pairing another removes the oldest.
        public var maxDevices = 32
        /// Requests per second from one client address, and the burst allowed.
        var requestsPerSecond = 10.0
        var requestBurst = 40
        /// Writes per second from one paired device, and the burst allowed.
        public var writesPerSecond = 1.0
        public var writeBurst = 5
    }

    public struct Page: Sendable, Equatable {
        /// Optional map tiles under the radar, e.g. "https://tile.example.org/{z}/{x}/{y}.png";
        /// empty: none (the page then makes no request but to hotcold-web). Its origin is
        /// added to the Content-Security-Policy's img-src.
        var tileURL = ""
    }

    public var daemon = Daemon()
    public var listen = Listen()
    public var live = Live()
    public var access = Access()
    public var page = Page()

    public init() {}
}
