import Foundation
import HotColdCore
import HotColdProtocol
import Synchronization

/// The fleet bridge: reads the daemon's events from its socket and publishes them to an MQTT
/// broker, at least once.
///
/// **At least once.** Every event carries the daemon's sequence number. The bridge publishes at
/// QoS 1 in a persistent session; the broker's PUBACKs (libmosquitto's publish callback) feed
/// an `AckLedger`, whose watermark — the highest number with everything up to it acknowledged —
/// is stored durably (`AckStore`). On start, and on every reconnect to the daemon, the bridge
/// asks `watch` with `since` = that number (after a reconnect within one run: the last number
/// handed to libmosquitto, which keeps and resends what it holds), so the daemon replays from its
/// log whatever the broker may not have. A crash (`kill -9`), a broker outage or a daemon
/// restart therefore costs duplicates (same `seq`), never a gap, as long as the daemon's log
/// still holds the events (its `WATCH` reply says `since_gap` otherwise, and the bridge logs it).
///
/// **Bounded.** At most `maxPending` messages wait for PUBACKs; beyond that the bridge stops
/// reading the daemon (closing the connection) and catches up from the log once the broker
/// has drained them.
///
/// Runs on the calling thread until `stop()`; libmosquitto's thread delivers the callbacks.
public final class Bridge: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    private struct Shared {
        var ledger: AckLedger
        var brokerConnected = false
        var stopping = false
    }

    public let settings: BridgeSettings
    private let store: AckStore
    private let log: Log
    private let shared: Mutex<Shared>
    private var client: MosquittoClient!
    private var saved: UInt64?

    // Main-loop state (the calling thread only).
    private var lastStatusRequest = ContinuousClock.now - .seconds(3600)
    private var statusOutstanding = false
    private var statusWanted = true
    private var lastStatePayload: String?
    private var lastLocationFix: Date?
    private var waypoints: [String: Coordinate] = [:]
    private var lastSeqSeen: UInt64?
    private var lastPersist = ContinuousClock.now - .seconds(3600)
    // What the daemon was last told (`report`), and when; nil after a reconnect.
    private var lastReport: (key: String, at: ContinuousClock.Instant)?
    private var daemonTakesReports = true

    /// Loads the stored watermark and prepares the MQTT client (not yet connected).
    public init(settings: BridgeSettings, log: @escaping Log) throws {
        self.settings = settings
        self.log = log
        try FileManager.default.createDirectory(atPath: settings.stateDirectory, withIntermediateDirectories: true)
        store = AckStore(directory: settings.stateDirectory)
        let stored = try store.load()
        saved = stored
        shared = Mutex(Shared(ledger: AckLedger(resumingAfter: stored)))
        var options = settings.client
        switch settings.layout {
        case .hotcold:
            options.will = Publication(topic: settings.topics.status, payload: HotColdLayout.offline, retain: true)
        case .owntracks:
            options.will = OwnTracksLayout.lastWill(connectedAt: Date(), topics: settings.topics)
        }
        client = try MosquittoClient(options: options) { [weak self] signal in self?.handle(signal) }
        if let stored { log("resuming after sequence number \(stored) (\(store.path))") }
    }

    /// The number stored as acknowledged (for tests and `status`).
    public var acknowledged: UInt64? { shared.withLock { $0.ledger.watermark } }

    /// Asks `run()` to finish: it publishes `offline`, waits briefly for PUBACKs, stores the
    /// watermark and disconnects. Safe from any thread.
    public func stop() { shared.withLock { $0.stopping = true } }

    private var stopping: Bool { shared.withLock { $0.stopping } }

    // MARK: - MQTT side (libmosquitto's thread)

    private func handle(_ signal: MosquittoClient.Signal) {
        switch signal {
        case .connected(let present):
            shared.withLock { $0.brokerConnected = true }
            log("connected to the broker \(settings.client.host):\(settings.client.port) as \(settings.client.clientID)"
                + (present ? " (session resumed)" : " (new session)"))
            if settings.layout == .hotcold {
                publishUntracked(Publication(topic: settings.topics.status, payload: HotColdLayout.online, retain: true))
            }
        case .refused(let reason):
            log("the broker refused the connection: \(reason)")
        case .disconnected(let code):
            let was = shared.withLock { s in
                defer { s.brokerConnected = false }
                return s.brokerConnected
            }
            if code != 0, was { log("lost the broker (code \(code)); libmosquitto reconnects with backoff") }
        case .published(let mid):
            shared.withLock { $0.ledger.acknowledged(mid: mid) }
        case .message:
            break
        }
    }

    /// Publishes a state or status message (no sequence number to acknowledge).
    private func publishUntracked(_ p: Publication) {
        do {
            let mid = try client.publish(p)
            shared.withLock { $0.ledger.register(mid: mid, seq: nil) }
        } catch {
            log("cannot publish \(p.topic): \(error)")
        }
    }

    // MARK: - Daemon side (the calling thread)

    /// Connects to the broker and relays until `stop()`.
    public func run() throws {
        try client.start()
        var backoff = Backoff(initial: .milliseconds(100), cap: .seconds(settings.daemonReconnectMax))
        var complained = false
        while !stopping {
            persist()
            if shared.withLock({ $0.ledger.unacknowledged }) >= settings.maxPending / 2 {
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            let connection: LineClient
            do {
                connection = try LineClient(path: settings.socketPath)
                connection.maxLineBytes = SequencedEvent.maximumLineBytes
            } catch {
                if !complained { log("cannot reach the daemon: \(error); retrying"); complained = true }
                let wait = backoff.nextDelay()
                sleep(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                continue
            }
            complained = false
            backoff.reset()
            let reason = relay(connection)
            if !stopping { log("daemon connection ended: \(reason); reconnecting") }
        }
        shutdown()
    }

    private func sleep(_ seconds: Double) {
        let until = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !stopping, ContinuousClock.now < until {
            persist()
            Thread.sleep(forTimeInterval: min(0.1, seconds))
        }
    }

    /// Subscribes on one connection and relays until it ends; returns why it ended.
    private func relay(_ connection: LineClient) -> String {
        let since = shared.withLock { $0.ledger.lastHanded }
        // Past 2^53 a number is not exact in JSON: the protocol refuses it, so resume live.
        let resume = since.flatMap { Int(exactly: $0) }.flatMap { $0 <= Limits.maxInteger ? $0 : nil }
        do { try connection.send(.watch(WatchRequest(since: resume))) } catch { return error.description }
        var expectReset = since
        statusOutstanding = false
        statusWanted = true
        lastReport = nil
        while !stopping {
            persist()
            reportIfDue(connection)
            if shared.withLock({ $0.ledger.unacknowledged }) >= settings.maxPending {
                log("\(settings.maxPending) messages await the broker's acknowledgement; pausing the daemon stream")
                return "paused until the broker catches up"
            }
            requestStatusIfDue(connection)
            let line: String?
            do {
                line = try connection.readLine(timeout: 0.1)
            } catch {
                if case .timeout = error { continue }
                return error.description    // lost, or a line over the cap (nothing is skipped)
            }
            guard let line else { return "the daemon closed the connection" }
            if let why = take(line, connection: connection, expectReset: &expectReset) { return why }
        }
        return "stopping"
    }

    /// Handles one line from the daemon; returns a reason to drop the connection, or nil.
    private func take(_ line: String, connection: LineClient, expectReset: inout UInt64?) -> String? {
        switch LineClass.of(line) {
        case "PROXIMITY", "ARRIVED", "DEPARTED", "GPS":
            let e: SequencedEvent
            do { e = try SequencedEvent(line: line) } catch {
                log("skipped an event the bridge cannot read: \(error)")
                return nil
            }
            if let seq = e.seq {
                if let after = expectReset {
                    expectReset = nil
                    if seq <= after {
                        log("the daemon's sequence numbers went back (\(after) → \(seq)); following them")
                        shared.withLock { $0.ledger = AckLedger(resumingAfter: seq - 1) }
                        saved = nil
                    }
                }
                let known = shared.withLock { $0.ledger.lastHanded }
                if let known, seq <= known { return nil }    // already handed (a replay overlap)
                lastSeqSeen = seq
            }
            return publish(e)
        case "STATUS":
            statusOutstanding = false
            do { absorb(try StatusSnapshot(statusLine: line)) } catch { log("unreadable STATUS: \(error)") }
        case "WATCH":
            if line.contains(#""since_gap""#) {
                log("the daemon's log no longer holds every event after the last acknowledged one: \(line)")
            }
        case "REPORT":
            break
        case "ERROR":
            if line.contains(#""command":"report""#) || line.contains(#"unknown command \"report\""#) {
                // A daemon before protocol 1.3: it cannot show the bridge in `status`.
                if daemonTakesReports { log("the daemon does not take reports: \(line)") }
                daemonTakesReports = false
                return nil
            }
            log("the daemon says: \(line)")
            if line.contains("since") {
                // A daemon without `since` (protocol 1.0): watch live, nothing to resume.
                try? connection.send(.watch(WatchRequest()))
                expectReset = nil
            }
        default:
            break    // VERSION, TRACKING, … and classes added later
        }
        return nil
    }

    private func publish(_ e: SequencedEvent) -> String? {
        let pubs: [Publication]
        switch settings.layout {
        case .hotcold:
            pubs = HotColdLayout.publications(for: e, topics: settings.topics)
        case .owntracks:
            if let id = e.event.target?.id, waypoints[id] == nil { statusWanted = true }
            pubs = OwnTracksLayout.transition(e, waypoint: e.event.target.flatMap { waypoints[$0.id] },
                                              tid: settings.trackerID, topics: settings.topics).map { [$0] } ?? []
        }
        switch e.event {
        case .arrived, .departed: statusWanted = true
        case .proximity, .gps: break
        }
        if let seq = e.seq { shared.withLock { $0.ledger.handed(seq: seq, messages: pubs.count) } }
        for p in pubs {
            do {
                let mid = try client.publish(p)
                shared.withLock { $0.ledger.register(mid: mid, seq: e.seq) }
            } catch {
                log("cannot publish event \(e.seq.map(String.init) ?? "?"): \(error); replaying from the last acknowledged")
                shared.withLock { $0.ledger.rewind() }
                return "publishing failed"
            }
        }
        return nil
    }

    private func requestStatusIfDue(_ connection: LineClient) {
        let now = ContinuousClock.now
        let interval = Duration.milliseconds(Int(settings.statusInterval * 1000))
        if statusOutstanding, now - lastStatusRequest < .seconds(5) { return }
        guard statusWanted || now - lastStatusRequest >= interval else { return }
        // Forced requests (visits, unknown targets) at most ten times a second.
        guard now - lastStatusRequest >= .milliseconds(100) else { return }
        if (try? connection.send(.status)) != nil {
            lastStatusRequest = now
            statusOutstanding = true
            statusWanted = false
        }
    }

    /// Tells the daemon how the bridge is doing (`report`, shown by `hotcold status`): at once
    /// when the broker link, the acknowledged number or the backlog changed, at most once a
    /// second, and every 30 s regardless.
    private func reportIfDue(_ connection: LineClient) {
        guard daemonTakesReports else { return }
        let (connected, acked, pending) = shared.withLock { ($0.brokerConnected, $0.ledger.watermark, $0.ledger.unacknowledged) }
        let state = connected ? "connected" : "disconnected"
        let key = "\(state) \(acked.map(String.init) ?? "-") \(pending)"
        let now = ContinuousClock.now
        if let last = lastReport {
            guard now - last.at >= .seconds(1), key != last.key || now - last.at >= .seconds(30) else { return }
        }
        let report = ReportRequest(
            service: "hotcold-mqtt", state: state,
            ackedSeq: acked.flatMap { Int(exactly: $0) }.flatMap { $0 <= Limits.maxInteger ? $0 : nil },
            pending: pending,
            detail: "broker \(settings.client.host):\(settings.client.port), layout \(settings.layout.rawValue)".prefix(Limits.nameLength).description)
        if (try? connection.send(.report(report))) != nil { lastReport = (key, now) }
    }

    private func absorb(_ s: StatusSnapshot) {
        for (id, c) in s.targetCoordinates { waypoints[id] = c }
        if waypoints.count > 10 * StatusSnapshot.maximumTargets { waypoints = s.targetCoordinates }
        switch settings.layout {
        case .hotcold:
            let p = HotColdLayout.state(s, seq: lastSeqSeen, topics: settings.topics)
            if p.payload != lastStatePayload {
                lastStatePayload = p.payload
                publishUntracked(p)
            }
        case .owntracks:
            guard let fix = s.lastFix, fix.time != lastLocationFix,
                  let p = OwnTracksLayout.location(s, tid: settings.trackerID, topics: settings.topics) else { return }
            lastLocationFix = fix.time
            publishUntracked(p)
        }
    }

    /// Stores the watermark when it moved, at most five times a second (each store is two
    /// fsyncs, ~10 ms here: storing after every PUBACK capped a bridge at ~100 events/s; a
    /// stored number that lags only means more duplicates after a crash).
    private func persist(force: Bool = false) {
        let now = ContinuousClock.now
        guard force || now - lastPersist >= .milliseconds(200) else { return }
        guard let w = shared.withLock({ $0.ledger.watermark }), w != saved else { return }
        lastPersist = now
        do {
            try store.save(w)
            saved = w
        } catch {
            log("cannot store the acknowledged sequence number: \(error)")
        }
    }

    private func shutdown() {
        let deadline = ContinuousClock.now + .seconds(2)
        if settings.layout == .hotcold, shared.withLock({ $0.brokerConnected }) {
            publishUntracked(Publication(topic: settings.topics.status, payload: HotColdLayout.offline, retain: true))
        }
        while ContinuousClock.now < deadline,
              shared.withLock({ $0.brokerConnected && $0.ledger.unacknowledged > 0 }) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        persist(force: true)
        client.stop()
        log("stopped; acknowledged up to \(saved.map(String.init) ?? "nothing yet")")
    }
}
