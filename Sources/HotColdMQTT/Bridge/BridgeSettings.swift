#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdConfig

/// Everything the bridge needs to run, resolved from the configuration and the environment:
/// the device's name, secrets read from their files or systemd credentials, the state directory.
public struct BridgeSettings: Sendable {
    var socketPath: String
    var daemonReconnectMax: Double
    var layout: TopicLayout
    var topics: Topics
    var trackerID: String
    var client: MosquittoClient.Options
    var stateDirectory: String
    var statusInterval: Double
    var maxPending: Int
    /// Home Assistant discovery, when enabled.
    var homeAssistant: HomeAssistantDiscovery?
    /// OwnTracks waypoints for a phone: its base topic (nil: none), how many, how large.
    var phoneTopic: String?
    var phoneWaypoints = 20
    var phoneRadius = 100
    var phoneApp: PhoneRegions.App = .android
    var phoneInterval = 60.0
    /// Longest silence about the position while the car stands, seconds (`[bridge] heartbeat`).
    var heartbeat = 240.0
    /// What this device publishes (`[share]`).
    var share: SharePolicy = .positions
    var shareRecords = true
    /// This device as friends name it: the feed's author and device, the liker in likes.
    var user: String
    var device: String
    /// Where this device's feed and likes live: the hotcold layout's topics (prefix `hotcold`
    /// when the bridge's own layout is OwnTracks), since followers look for them there.
    var friendTopics: Topics
    /// `[friends] club`: a prefix under which every device counts as followed; nil: none.
    var club: String?
    /// `[friends] inbox_bytes`: the friends inbox's budget (its journal lines), see `FriendInbox`.
    var inboxBytes = FriendInbox.defaultMaximumBytes

    init(socketPath: String, daemonReconnectMax: Double = 10, layout: TopicLayout, topics: Topics,
                trackerID: String, client: MosquittoClient.Options, stateDirectory: String,
                statusInterval: Double = 5, maxPending: Int = 10_000) {
        self.socketPath = socketPath
        self.daemonReconnectMax = daemonReconnectMax
        self.layout = layout
        self.topics = topics
        self.trackerID = trackerID
        self.client = client
        self.stateDirectory = stateDirectory
        self.statusInterval = statusInterval
        self.maxPending = maxPending
        let levels = topics.base.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        user = levels.count >= 2 ? levels[levels.count - 2] : ""
        device = levels.last ?? ""
        friendTopics = layout == .hotcold ? topics : Topics(prefix: TopicLayout.hotcold.defaultPrefix, user: user, device: device)
    }

    /// `hotcold-<user>-<device>-<layout>`: two bridges of one device (one per layout) must not
    /// share a client id, or the broker hands the session back and forth between them.
    static func defaultClientID(user: String, device: String, layout: TopicLayout) -> String {
        "hotcold-\(user)-\(device)-\(layout.rawValue)"
    }

    /// Resolves `config` (read from `file`) against `environment` (`CREDENTIALS_DIRECTORY`,
    /// `STATE_DIRECTORY`). Errors name the key.
    public init(config c: BridgeConfiguration, file: String,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigError) {
        let device: String
        if c.topics.device.isEmpty {
            let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
            guard Topics.problem(level: host) == nil else {
                throw ConfigError(file: file, line: nil, key: "topics.device",
                                  message: "the host name \"\(host)\" cannot be a topic level; set topics.device")
            }
            device = host
        } else {
            device = c.topics.device
        }
        let prefix = c.topics.prefix.isEmpty ? c.topics.layout.defaultPrefix : c.topics.prefix
        var options = MosquittoClient.Options(
            host: c.broker.host, port: c.broker.port,
            clientID: c.broker.clientID.isEmpty ? Self.defaultClientID(user: c.topics.user, device: device, layout: c.topics.layout)
                : c.broker.clientID)
        options.keepalive = c.broker.keepalive
        options.maxInflight = c.broker.maxInflight
        options.reconnectMinSeconds = c.broker.reconnectMin
        options.reconnectMaxSeconds = c.broker.reconnectMax
        if !c.broker.username.isEmpty { options.username = c.broker.username }
        if !c.broker.passwordFile.isEmpty {
            let path = try CredentialPath.resolve(c.broker.passwordFile, key: "broker.password_file", file: file,
                                                  environment: environment)
            options.password = try CredentialPath.readSecret(at: path, key: "broker.password_file", file: file)
        }
        if c.tls.enabled {
            func path(_ v: String, _ key: String) throws(ConfigError) -> String? {
                guard !v.isEmpty else { return nil }
                let p = try CredentialPath.resolve(v, key: key, file: file, environment: environment)
                guard FileManager.default.isReadableFile(atPath: p) else {
                    throw ConfigError(file: file, line: nil, key: key, message: "cannot read \(p)")
                }
                return p
            }
            options.tls = MosquittoClient.TLS(caFile: try path(c.tls.caFile, "tls.ca_file"),
                                              certFile: try path(c.tls.certFile, "tls.cert_file"),
                                              keyFile: try path(c.tls.keyFile, "tls.key_file"))
        }
        let stateDirectory = !c.bridge.stateDirectory.isEmpty ? c.bridge.stateDirectory
            : (environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? "/var/lib/hotcold-mqtt")
        self.init(socketPath: c.daemon.socket, daemonReconnectMax: c.daemon.reconnectMax,
                  layout: c.topics.layout, topics: Topics(prefix: prefix, user: c.topics.user, device: device),
                  trackerID: c.topics.trackerID.isEmpty ? OwnTracksLayout.defaultTrackerID(device: device) : c.topics.trackerID,
                  client: options, stateDirectory: stateDirectory,
                  statusInterval: c.bridge.statusInterval, maxPending: c.bridge.maxPending)
        if !c.ownTracks.phoneTopic.isEmpty { phoneTopic = c.ownTracks.phoneTopic }
        phoneWaypoints = c.ownTracks.waypoints
        phoneRadius = c.ownTracks.radius
        phoneApp = c.ownTracks.phoneApp
        phoneInterval = c.ownTracks.phoneInterval
        heartbeat = c.bridge.heartbeat
        share = c.share.share
        shareRecords = c.share.records
        club = c.friends.club.isEmpty ? nil : c.friends.club
        inboxBytes = c.friends.inboxBytes
        if c.homeAssistant.enabled {
            homeAssistant = HomeAssistantDiscovery(prefix: c.homeAssistant.prefix, topics: self.topics, user: c.topics.user,
                                                   device: device, expireAfter: c.homeAssistant.expireAfter)
        }
    }
}
