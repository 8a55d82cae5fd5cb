#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol
import Synchronization

/// The fleet bridge: reads the daemon's events from its socket and publishes them to an MQTT
/// broker, at least once.
///
/// **At least once.** Every event carries the daemon's sequence number. The bridge publishes at
/// QoS 1 in a persistent session; the broker's PUBACKs (libmosquitto's publish callback) feed
/// an `AckLedger`, whose watermark — the highest number with everything up to it acknowledged —
/// is stored durably (`AckStore`). The bridge asks `watch` with `since` = the last number it
/// handed to libmosquitto (which keeps and resends what it holds), the stored watermark after a
/// restart, or 0 on a first start (everything the daemon's current log holds, within the
/// replay's bounds). A crash (`kill -9`), a broker outage or a daemon restart therefore costs
/// duplicates (same `seq`), never a gap, as long as the daemon's log still holds the events.
///
/// **Holding position.** While the broker is away the bridge publishes nothing (libmosquitto
/// would queue every attempt and send each copy later): it turns the daemon's stream off
/// (`watch` `enable: false`) on the same connection, and asks `since` again once the broker is
/// back. So an outage of any length costs neither memory nor daemon reconnects, and each event
/// reaches the broker at most twice (a message in flight at the drop is resent by libmosquitto).
///
/// **Never silent.** A daemon that refuses `watch` (`busy`) is asked again with backoff; a lost
/// connection or a reply the bridge cannot read is reconnected with backoff. Meanwhile the
/// bridge reports itself to the daemon as waiting, with why (`hotcold status` shows it), and logs
/// each kind of failure once, with a count (`RepeatedFailure`).
///
/// **Bounded.** At most `maxPending` messages wait for PUBACKs; beyond that the stream is held
/// until half of them are acknowledged.
///
/// Runs on the calling thread until `stop()`; the MQTT client's thread delivers the callbacks.
public final class Bridge: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// Longest line the bridge reads from the daemon: a reply is never larger than the
    /// daemon's per-client output queue, 1 MiB (PROTOCOL.md, "Limits"), and a `STATUS` of a
    /// 1,000-target hunt is ~165 KB. Events are held to their own, smaller cap.
    static let maximumReplyBytes = 1 << 20

    struct Shared {
        var ledger: AckLedger
        var brokerConnected = false
        var stopping = false
        var outage = BrokerOutage()
        /// The topic of each message awaiting its PUBACK, to name it if the broker refuses it.
        var topics: [Int32: String] = [:]
        /// Messages the broker refused (v5 reason ≥ 128), and the last refusal, for `status`.
        var refused = 0
        var lastRefusal: String?
        var friends = FriendState()
        /// The broker started a new session (it may have lost its retained messages too): the
        /// main loop publishes the position, nearest and state again at the next chance.
        var newSession = false

        mutating func register(mid: Int32, seq: UInt64?, topic: String) {
            ledger.register(mid: mid, seq: seq)
            topics[mid] = topic
        }
    }

    let settings: BridgeSettings
    let store: AckStore
    let log: Log
    let shared: Mutex<Shared>
    var client: MosquittoClient!
    var saved: UInt64?
    /// The `service` name this bridge reports as: one per layout, so two bridges on one daemon
    /// show as two lines in `hotcold status`.
    let serviceName: String
    /// Friends' topics (following, club, this device's likes) and what they mean.
    let friendTopics: FriendTopics
    /// What the broker brought for the daemon, waiting for the forwarder (feed items and likes
    /// journaled in the state directory).
    let inbox: FriendInbox

    // Main-loop state (the calling thread only).
    var lastStatusRequest = ContinuousClock.now - .seconds(3600)
    var statusOutstanding = false
    var statusWanted = true
    /// Each target's own coordinates, from STATUS (protocol 1.9): regions' centres and
    /// transitions' `lat`/`lon`.
    var waypoints: [String: Coordinate] = [:]
    /// The latest fix accuracy seen (OwnTracks transitions' `acc`).
    var lastAccuracy: Double?
    /// The receiver's clock (the latest fix time seen): with the box's, a region's creation time.
    var regionClock = RegionClock()
    /// The targets the car is at (OwnTracks locations' `inregions`), by id.
    var at: [String: TargetRef] = [:]
    /// When the car's position goes out (`PositionPolicy`), and how often it did, per reason.
    var position: PositionPolicy
    var positionsPublished: [PositionPolicy.Reason: Int] = [:]
    /// The daemon sends FIX (protocol 1.9); false: positions come from STATUS, as before.
    var fixStream = true
    /// The daemon takes `report`'s `device` (protocol 1.9).
    var reportsDevice = true
    /// What `…/nearest` and `…/state` last said (their substance, not their time).
    var nearestSent: (key: String, distance: Double?, at: ContinuousClock.Instant)?
    var stateSent: (key: String, at: ContinuousClock.Instant)?
    /// The position went out since the last `…/state` (the car moves: the state follows).
    var movedSinceState = false
    /// The phone's regions (with `[owntracks] phone_topic`), and their creation times.
    var phone: PhoneRegions?
    let regions: RegionStore
    var phoneProblem = RepeatedFailure()
    var lastSeqSeen: UInt64?
    var lastPersist = ContinuousClock.now - .seconds(3600)
    var lastReport: (key: String, at: ContinuousClock.Instant)?
    var daemonTakesReports = true
    var daemonFailures = RepeatedFailure()
    var persistFailures = RepeatedFailure()
    var readFailures = RepeatedFailure()
    /// Why the stream is not flowing now (for `status`), nil while it flows.
    var waitingFor: String?
    /// Whether the stream's connection acts for `[topics] user` (`act_for`), to be sent that
    /// user's RECORDs (see `Bridge+RecordsUser.swift`).
    var recordsActing = RecordsActing.untried
    /// Daemon connections opened since start (for tests and the benchmark).
    private(set) var daemonConnections = 0

    /// Loads the stored watermark and prepares the MQTT client (not yet connected). Errors
    /// about the state directory name the way out (`--state-dir`).
    public init(settings: BridgeSettings, log: @escaping Log) throws {
        self.settings = settings
        self.log = log
        serviceName = "hotcold-mqtt-\(settings.layout.rawValue)"
        store = AckStore(directory: settings.stateDirectory)
        let stored: UInt64?
        do {
            try store.createDirectory()
            stored = try store.load()
        } catch {
            throw AckStore.Failure(description: "\(error)\(Self.stateHint(settings.stateDirectory))")
        }
        saved = stored
        position = PositionPolicy(settings: .init(heartbeat: settings.heartbeat))
        regions = RegionStore(directory: settings.stateDirectory, log: log)
        if let topic = settings.phoneTopic {
            phone = PhoneRegions(settings: .init(count: settings.phoneWaypoints, radius: settings.phoneRadius,
                                                 app: settings.phoneApp, minInterval: settings.phoneInterval),
                                 held: regions.held(phoneTopic: topic, app: settings.phoneApp))
        }
        let journal = InboxJournal(directory: settings.stateDirectory)
        inbox = FriendInbox(maximumBytes: settings.inboxBytes, journal: journal)
        friendTopics = FriendTopics(own: FriendID(user: settings.user, device: settings.device), ownTopics: settings.friendTopics,
                                    club: settings.club)
        var initial = Shared(ledger: AckLedger(resumingAfter: stored))
        initial.friends.wanted = friendTopics.subscriptions(following: [])
        shared = Mutex(initial)
        var options = settings.client
        switch settings.layout {
        case .hotcold:
            options.will = Publication(topic: settings.topics.status, payload: HotColdLayout.offline, retain: true)
        case .owntracks:
            options.will = OwnTracksLayout.lastWill(connectedAt: Date(), topics: settings.topics)
        }
        // Nothing the bridge subscribes to is larger than a feed item: a stranger's 255 MiB on a
        // friend's topic is dropped by the broker (Maximum Packet Size) or unread on arrival.
        options.maximumIncomingBytes = Self.maximumIncomingBytes
        client = try MosquittoClient(options: options) { [weak self] signal in self?.handle(signal) }
        // Every message names its sender by its topic; the shipped ACL lets each login write
        // only under its own hotcold/<login>/. A login that is not [topics] user would have
        // every message refused: said once, at start, by name.
        if let login = settings.client.username, login != settings.user {
            log("login \"\(login)\" is not [topics] user \"\(settings.user)\": an ACL that lets each login write only under its own "
                + "hotcold/<login>/ (config/mosquitto-hotcold.acl) refuses every message this device sends")
        }
        if let stored {
            log("resuming after sequence number \(stored) (\(store.path))")
        } else {
            log("no stored position (\(store.path)): starting from the beginning of the daemon's log")
        }
        // Feed items and likes taken from the broker before a crash, not yet handed over.
        restoreInbox(journal)
    }

    /// What to do about a state directory the bridge cannot use.
    static func stateHint(_ dir: String) -> String {
        "; the bridge keeps its position in \(dir): give it a directory it may write with --state-dir DIR (or [bridge] state_directory)"
    }

    /// The number stored as acknowledged (for tests and `status`).
    var acknowledged: UInt64? { shared.withLock { $0.ledger.watermark } }

    /// Asks `run()` to finish: it publishes `offline`, waits briefly for PUBACKs, stores the
    /// watermark and disconnects. Safe from any thread.
    public func stop() {
        shared.withLock { $0.stopping = true }
        inbox.poke()
    }

    var stopping: Bool { shared.withLock { $0.stopping } }
    var brokerConnected: Bool { shared.withLock { $0.brokerConnected } }

    /// Connects to the broker and relays until `stop()`.
    public func run() throws {
        try client.start()
        try FriendForwarder(bridge: self).start()
        var backoff = Backoff(initial: .milliseconds(200), cap: .seconds(max(0.2, settings.daemonReconnectMax)))
        while !stopping {
            persist()
            let connection: LineClient
            do {
                connection = try LineClient(path: settings.socketPath)
                connection.maxLineBytes = Self.maximumReplyBytes
            } catch {
                daemonFailed("cannot reach the daemon: \(error)", backoff: &backoff)
                continue
            }
            daemonConnections += 1
            // A connection that cannot act for the records' user as it should is closed; the
            // next one (after the usual backoff: a daemon that drops every connection must not
            // be asked again at once) tries again or does without.
            guard actForRecordsUser(connection) else {
                daemonFailed("daemon connection closed before streaming (act_for)", backoff: &backoff)
                continue
            }
            let started = ContinuousClock.now
            let ended = session(connection)
            guard !stopping else { break }
            // A connection that streamed a while was a success; one that failed at once backs off.
            if ended.streamed, ContinuousClock.now - started > .seconds(5) { backoff.reset() }
            daemonFailed("daemon connection ended: \(ended.reason)", backoff: &backoff)
        }
        shutdown()
    }

    /// Logs (bounded) and waits before the next daemon connection.
    private func daemonFailed(_ why: String, backoff: inout Backoff) {
        waitingFor = why
        let wait = backoff.nextDelay()
        if let line = daemonFailures.failed(why) { log("\(line); retrying (backoff up to \(settings.daemonReconnectMax) s)") }
        sleep(wait)
    }

    func sleep(_ d: Duration) {
        let until = ContinuousClock.now + d
        while !stopping, ContinuousClock.now < until {
            persist()
            BlockingThread.sleep(seconds: 0.05)
        }
    }

    /// Stores the watermark when it moved, at most five times a second (each store is two
    /// fsyncs, ~10 ms here: storing after every PUBACK capped a bridge at ~100 events/s; a
    /// stored number that lags only means more duplicates after a crash). A failure is logged
    /// once per kind (with a count), and `status` shows it.
    func persist(force: Bool = false) {
        let now = ContinuousClock.now
        guard force || now - lastPersist >= .milliseconds(200) else { return }
        guard let w = shared.withLock({ $0.ledger.watermark }), w != saved else { return }
        lastPersist = now
        do {
            try store.save(w)
            saved = w
            if let after = persistFailures.recovered() { log("stored the acknowledged sequence number again \(after)") }
        } catch {
            let line = "cannot store the acknowledged sequence number: \(error)\(Self.stateHint(settings.stateDirectory))"
            if let l = persistFailures.failed(line) { log(l) }
        }
    }

    private func shutdown() {
        let deadline = ContinuousClock.now + .seconds(2)
        if settings.layout == .hotcold, brokerConnected {
            publishUntracked(Publication(topic: settings.topics.status, payload: HotColdLayout.offline, retain: true))
        }
        while ContinuousClock.now < deadline,
              shared.withLock({ $0.brokerConnected && $0.ledger.unacknowledged > 0 }) {
            BlockingThread.sleep(seconds: 0.02)
        }
        persist(force: true)
        client.stop()
        log("stopped; acknowledged up to \(saved.map(String.init) ?? "nothing yet")")
    }
}
