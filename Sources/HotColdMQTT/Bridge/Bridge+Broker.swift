#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Bridge {
    /// What libmosquitto's thread reports.
    func handle(_ signal: MosquittoClient.Signal) {
        let id = settings.client.clientID
        switch signal {
        case .connected(let present):
            let outage = shared.withLock { s in
                s.brokerConnected = true
                if !present { s.newSession = true }
                return s.outage.connected(at: .now)
            }
            let session = present ? "session resumed" : "new session"
            if let outage {
                log(String(format: "broker %@:%d back after %.1f s (%d failed attempts), as %@ (%@); resuming the daemon's stream",
                           settings.client.host, settings.client.port, outage.seconds, outage.attempts, id, session))
            } else {
                log("connected to the broker \(settings.client.host):\(settings.client.port) as \(id) (\(session))")
            }
            if settings.layout == .hotcold {
                publishUntracked(Publication(topic: settings.topics.status, payload: HotColdLayout.online, retain: true))
            }
            // What an earlier run shared and the policy no longer does: cleared, retained.
            for p in SharedPublications.retainedToClear(settings: settings) { publishUntracked(p) }
            subscribeFriends()
            if let ha = settings.homeAssistant {
                do { try client.subscribe(ha.birthTopic) } catch { log("cannot subscribe to \(ha.birthTopic): \(error)") }
                announce(ha)
            }
        case .refused(let reason):
            // 134 bad user name or password, 135 not authorized (mosquitto's answer to a wrong password).
            let hint = reason.hasSuffix("(reason 134)") || reason.hasSuffix("(reason 135)")
                ? " (check [broker] username = \"\(settings.client.username ?? "")\" and password_file)" : ""
            brokerFailed("the broker refused the connection: \(reason)\(hint)")
        case .disconnected(let code, let reason):
            if code != 0 { brokerFailed("\(reason) (code \(code))") }
        case .attemptFailed(let reason):
            brokerFailed(reason)
        case .published(let mid, let reason, let reasonText):
            let refusal = shared.withLock { s -> (String, Int)? in
                s.ledger.acknowledged(mid: mid)
                let topic = s.topics.removeValue(forKey: mid)
                guard reason >= 128 else { return nil }
                // Refused for good (an ACL, a quota): sending it again would be refused again.
                s.refused += 1
                let what = "the broker refused to publish on \(topic ?? "a topic"): \(reasonText) (reason \(reason))"
                    + (reason == 135 ? ", check the broker's ACL for \(settings.client.username.map { "user \($0)" } ?? "this client")" : "")
                let new = s.lastRefusal != what
                s.lastRefusal = what
                return new || RepeatedFailure.isPowerOfTen(s.refused) ? (what, s.refused) : nil
            }
            if let (what, count) = refusal { log(count > 1 ? "\(what) (\(count) refused so far)" : what) }
        case .oversized(let topic, let bytes):
            receivedOversized(topic: topic, bytes: bytes)
        case .message(let topic, let payload, _):
            if receivedFriendMessage(topic: topic, payload: payload) { return }
            // Home Assistant's birth message: it (re)started and wants the configuration again.
            if let ha = settings.homeAssistant, topic == ha.birthTopic, payload == Array(HotColdLayout.online.utf8) {
                log("Home Assistant is online (\(topic)); publishing the discovery configuration again")
                announce(ha)
            }
        }
    }

    /// Publishes Home Assistant's discovery configuration (retained).
    private func announce(_ ha: HomeAssistantDiscovery) {
        for p in ha.configs(sharing: settings.share) { publishUntracked(p) }
    }

    private func brokerFailed(_ reason: String) {
        let lines = shared.withLock { s in
            s.brokerConnected = false
            s.friends.subscribed = nil
            return s.outage.failed(reason, at: .now, clientID: settings.client.clientID)
        }
        for l in lines { log(l) }
    }

    /// Publishes a state or status message (no sequence number to acknowledge). Returns false
    /// when it was not handed to libmosquitto (the broker is away: nothing is queued then).
    @discardableResult
    func publishUntracked(_ p: Publication) -> Bool {
        guard brokerConnected else { return false }
        do {
            let mid = try client.publish(p)
            shared.withLock { $0.register(mid: mid, seq: nil, topic: p.topic) }
            return true
        } catch {
            if let mid = error.queuedMid {
                shared.withLock { $0.register(mid: mid, seq: nil, topic: p.topic) }
                return true
            }
            log("cannot publish \(p.topic): \(error)")    // not a link failure: a message libmosquitto refuses
            return false
        }
    }
}
