/// The broker link's ups and downs, turned into one log line when it goes, one when it is
/// back, and a line for each *new* reason in between (at most `maxReasons`), never one per
/// attempt. It also notices a connection that is dropped right after each CONNACK, the mark
/// of another client using the same client id (the broker hands the session to the newest).
///
/// ```swift
/// var o = BrokerOutage()
/// o.failed("connection refused", at: .now)   // ["broker unreachable: connection refused…"]
/// o.failed("connection refused", at: .now)   // []
/// o.connected(at: .now)                      // "back after 2 attempts …"
/// ```
struct BrokerOutage: Sendable {
    static let maxReasons = 5
    /// Quick drops in a row that point at a client id in use twice.
    static let quickDropsForHint = 3

    private(set) var since: ContinuousClock.Instant?
    private(set) var attempts = 0
    private var reasonsLogged: [String] = []
    private var connectedAt: ContinuousClock.Instant?
    private var quickDrops = 0
    private var hinted = false
    /// True from the first connection on (a failure before it is a start-up failure).
    private(set) var everConnected = false

    init() {}

    var isOut: Bool { since != nil }

    /// A failed attempt or a lost connection; returns the lines to log (often none).
    mutating func failed(_ reason: String, at now: ContinuousClock.Instant, clientID: String = "") -> [String] {
        var lines: [String] = []
        if let up = connectedAt {
            connectedAt = nil
            if now - up < .seconds(5) { quickDrops += 1 } else { quickDrops = 0 }
            // MQTT v5 brokers say it outright ("Session taken over", reason 142).
            if quickDrops >= Self.quickDropsForHint || reason.contains("Session taken over"), !hinted {
                hinted = true
                lines.append("the broker dropped the connection \(quickDrops) times right after accepting it: "
                             + "another client probably uses the same client id \"\(clientID)\" (the broker gives the "
                             + "session to the newest); give each bridge its own [broker] client_id")
            }
        }
        attempts += 1
        if since == nil {
            since = now
            reasonsLogged = [reason]
            lines.insert((everConnected ? "lost the broker: " : "cannot reach the broker: ") + reason
                         + "; holding the daemon's stream until it is back (retrying with backoff)", at: 0)
        } else if !reasonsLogged.contains(reason), reasonsLogged.count < Self.maxReasons {
            reasonsLogged.append(reason)
            lines.insert("broker still unreachable (attempt \(attempts)): \(reason)", at: 0)
        }
        return lines
    }

    /// CONNACK accepted; returns how long the outage lasted and how many attempts failed, or
    /// nil when there was no outage.
    mutating func connected(at now: ContinuousClock.Instant) -> (seconds: Double, attempts: Int)? {
        everConnected = true
        connectedAt = now
        defer { since = nil; attempts = 0; reasonsLogged = [] }
        guard let since else { return nil }
        let d = now - since
        return (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, attempts)
    }
}
