#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

extension Bridge {
    func requestStatusIfDue(_ connection: LineClient) {
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
    /// when the state, the acknowledged number, the backlog or the reason for waiting changed,
    /// at most once a second, and every 30 s regardless.
    func reportIfDue(_ connection: LineClient, stream: StreamState) {
        guard daemonTakesReports else { return }
        let (connected, acked, pending) = shared.withLock { ($0.brokerConnected, $0.ledger.watermark, $0.ledger.unacknowledged) }
        let state: String
        var detail = "broker \(settings.client.host):\(settings.client.port) as \(settings.client.clientID), layout \(settings.layout.rawValue)"
        if !connected {
            state = "disconnected"
            detail = "waiting for the broker \(settings.client.host):\(settings.client.port) (stream held), as \(settings.client.clientID)"
        } else if stream != .on {
            state = "busy"
            detail = "waiting for \(waitingFor ?? "the daemon's stream"); " + detail
        } else {
            state = "connected"
        }
        if let problem = persistFailures.current { detail = "\(problem.prefix(80)); " + detail }
        let (refused, lastRefusal) = shared.withLock { ($0.refused, $0.lastRefusal) }
        if let lastRefusal { detail = "\(refused) refused, last: \(lastRefusal.prefix(100)); " + detail }
        // Every message dropped on the way from the broker to the daemon, by why.
        let f = shared.withLock { $0.friends }
        // Not a drop, but what a crash would lose: items the journal could not keep.
        let journalFailures = inbox.counters.journalFailures
        if f.rejected + f.inboxRefused + f.oversized + f.overQuota + f.daemonRefused + journalFailures > 0 {
            detail = "friends: \(f.rejected) messages ignored, \(f.inboxRefused) refused for a full inbox"
                + (f.oversized > 0 ? ", \(f.oversized) oversized" : "")
                + (f.overQuota > 0 ? ", \(f.overQuota) over the daemon's quota" : "")
                + (f.daemonRefused > 0 ? ", \(f.daemonRefused) refused by the daemon" : "")
                + (journalFailures > 0 ? ", \(journalFailures) inbox journal writes failed" : "") + "; " + detail
        }
        let key = "\(state) \(acked.map(String.init) ?? "-") \(pending) \(detail)"
        let now = ContinuousClock.now
        if let last = lastReport {
            guard now - last.at >= .seconds(1), key != last.key || now - last.at >= .seconds(30) else { return }
        }
        let report = ReportRequest(
            service: serviceName, state: persistFailures.current != nil && connected ? "error" : state,
            ackedSeq: acked.flatMap { Int(exactly: $0) }.flatMap { $0 <= Limits.maxInteger ? $0 : nil },
            pending: pending,
            detail: Limits.prefix(detail, max: Limits.nameLength),
            device: reportsDevice ? friendTopics.own : nil)
        if (try? connection.send(.report(report))) != nil { lastReport = (key, now) }
    }

    func absorb(_ s: StatusReply) {
        // Each target's own coordinates (1.9); an older daemon gives none, and nothing is
        // rebuilt from the fix and a bearing rounded to a tenth of a degree.
        for t in s.targets { if let c = t.coordinate { waypoints[t.target.id] = c } }
        if waypoints.count > 10 * StatusReply.bridgeTargets {
            waypoints = Dictionary(s.targets.compactMap { t in t.coordinate.map { (t.target.id, $0) } }, uniquingKeysWith: { a, _ in a })
        }
        at = Dictionary(s.targets.filter { $0.arrived && $0.target.kind != SharedPublications.friendKind }.map { ($0.target.id, $0.target) },
                        uniquingKeysWith: { a, _ in a })
        // A fix the FIX stream did not bring (a daemon before 1.9, or the first at start):
        // judged like any other, so the same fix never goes out twice.
        if let f = s.gps.lastFix { offerFix(f) }
        // Positions, distances and the nearest targets (the phone's regions) leave the car
        // only when its user shares positions.
        guard settings.share.sharesPositions else { return }
        updatePhone(s)
        guard settings.layout == .hotcold else { return }
        publishNearestIfNews(s)
        publishStateIfNews(s)
    }

    /// `…/nearest` when it says something new: another target, tier, trend or arrival, or a
    /// distance changed by 10 m or 5 %; and, for Home Assistant's `expire_after`, again every
    /// half of it while nothing changes. Never a repeat with only a new time otherwise.
    private func publishNearestIfNews(_ s: StatusReply) {
        let n = s.nearest
        let key = n.map { "\($0.target.id) \($0.tier) \($0.trend) \($0.arrived)" } ?? "-"
        let now = ContinuousClock.now
        if let last = nearestSent, last.key == key {
            var moved = false
            if let a = last.distance, let b = n?.distanceM { moved = abs(a - b) >= max(10, 0.05 * a) }
            let refresh = settings.homeAssistant.map { ha in
                ha.expireAfter > 0 && now - last.at >= .seconds(Double(ha.expireAfter) / 2)
            } ?? false
            guard moved || refresh else { return }
        }
        if publishUntracked(HotColdLayout.nearest(s, topics: settings.topics)) {
            nearestSent = (key, n?.distanceM, now)
        }
    }

    /// `…/state` when its substance changed (the GPS state, the tracked targets, a tier, trend
    /// or arrival), or at most every `status_interval` while the car moves (its last fix and
    /// distances follow); nothing while it stands and nothing changes.
    private func publishStateIfNews(_ s: StatusReply) {
        let key = ([s.gps.state, s.gps.lastFix == nil ? "nofix" : "fix"]
                   + s.targets.map { "\($0.target.id) \($0.tier) \($0.trend) \($0.arrived)" }).joined(separator: "|")
        let now = ContinuousClock.now
        if let last = stateSent, last.key == key {
            guard movedSinceState, now - last.at >= .milliseconds(Int(settings.statusInterval * 1000)) else { return }
        }
        if publishUntracked(HotColdLayout.state(s, seq: lastSeqSeen, topics: settings.topics)) {
            stateSent = (key, now)
            movedSinceState = false
        }
    }

    /// The phone's regions (`PhoneRegions`): the nearest places at their own coordinates, sent
    /// when the set changes (with hysteresis, at most every `phone_interval`). Each region's
    /// creation time is kept before a command names it.
    private func updatePhone(_ s: StatusReply) {
        guard let topic = settings.phoneTopic, var regionsNow = phone, s.gps.lastFix != nil else { return }
        let candidates = s.targets.filter { $0.target.kind != SharedPublications.friendKind }.compactMap { t in
            t.coordinate.map { PhoneRegions.Place(id: t.target.id, name: t.target.name, at: $0, distance: t.distanceM) }
        }
        guard candidates.count == s.targets.filter({ $0.target.kind != SharedPublications.friendKind }).count else {
            if let l = phoneProblem.failed("the daemon gives no coordinates of its targets (protocol before 1.9): "
                                           + "no regions for the phone \(topic) until it is updated") { log(l) }
            return
        }
        let now = monotonicSeconds
        guard let change = regionsNow.change(candidates, now: now) else { return }
        let clock = regionClock.now(box: Date(), monotonic: monotonicSeconds)
        var stamps: [String: Int] = [:]
        for p in change.set + change.removed { stamps[p.id] = regions.stamp(p.id, now: clock) }
        let before = regionsNow.held.values.sorted { $0.id < $1.id }
        // Kept before they are sent: a creation time never changes once a phone has it, and a
        // restart knows what the phone holds.
        regions.setHeld(change.set, phoneTopic: topic, app: settings.phoneApp)
        do { try regions.save() } catch {
            regions.setHeld(before, phoneTopic: topic, app: settings.phoneApp)
            if let l = phoneProblem.failed("cannot keep the phone's regions (\(error)); nothing sent to \(topic)") { log(l) }
            return
        }
        let pubs = OwnTracksLayout.commands(for: change, app: settings.phoneApp, radius: settings.phoneRadius,
                                            stamp: { stamps[$0] ?? 0 }, phoneTopic: topic)
        var sent = 0
        for p in pubs {
            guard publishUntracked(p) else { break }
            sent += 1
        }
        guard sent == pubs.count else {
            // The broker went: what the phone holds is what it held (a clear without its set
            // is made good by the next change, which resends the whole set).
            regions.setHeld(sent > 0 ? [] : before, phoneTopic: topic, app: settings.phoneApp)
            try? regions.save()
            if sent > 0 { regionsNow.forget() }
            phone = regionsNow
            return
        }
        regionsNow.sent(change, now: now)
        phone = regionsNow
        _ = phoneProblem.recovered()
    }
}
