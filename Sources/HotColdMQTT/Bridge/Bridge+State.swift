import Foundation
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
        let (ignored, full) = shared.withLock { ($0.friends.rejected, $0.friends.inboxRefused) }
        if ignored + full > 0 { detail = "friends: \(ignored) messages ignored, \(full) refused for a full inbox; " + detail }
        let key = "\(state) \(acked.map(String.init) ?? "-") \(pending) \(detail)"
        let now = ContinuousClock.now
        if let last = lastReport {
            guard now - last.at >= .seconds(1), key != last.key || now - last.at >= .seconds(30) else { return }
        }
        let report = ReportRequest(
            service: serviceName, state: persistFailures.current != nil && connected ? "error" : state,
            ackedSeq: acked.flatMap { Int(exactly: $0) }.flatMap { $0 <= Limits.maxInteger ? $0 : nil },
            pending: pending,
            detail: String(detail.prefix(Limits.nameLength)))
        if (try? connection.send(.report(report))) != nil { lastReport = (key, now) }
    }

    func absorb(_ s: StatusReply) {
        let located = s.targetCoordinates
        for (id, c) in located { waypoints[id] = c }
        if let a = s.gps.lastFix?.accuracyM { lastAccuracy = a }
        // Positions, distances and the nearest targets (the phone's waypoints) leave the car
        // only when its user shares positions.
        if waypoints.count > 10 * StatusReply.bridgeTargets { waypoints = s.targetCoordinates }
        guard settings.share.sharesPositions else { return }
        pushWaypointsIfChanged(s, located: located)
        switch settings.layout {
        case .hotcold:
            // Each carries its time, so each status gives new ones: a reader (and Home Assistant's
            // expire_after) sees the state renewed every status_interval while it holds.
            publishUntracked(HotColdLayout.state(s, seq: lastSeqSeen, topics: settings.topics))
            publishUntracked(HotColdLayout.nearest(s, topics: settings.topics))
            if let fix = s.gps.lastFix, fix.time != lastLocationFix,
               let p = HotColdLayout.location(s, topics: settings.topics), publishUntracked(p) {
                lastLocationFix = fix.time
            }
        case .owntracks:
            guard let fix = s.gps.lastFix, fix.time != lastLocationFix,
                  let p = OwnTracksLayout.location(s, tid: settings.trackerID, topics: settings.topics) else { return }
            if publishUntracked(p) { lastLocationFix = fix.time }
        }
    }

    /// Sends the phone the nearest `phoneWaypoints` targets when that set changed (and at the
    /// first status), so its OwnTracks regions follow the car.
    private func pushWaypointsIfChanged(_ s: StatusReply, located: [String: Coordinate]) {
        guard let phone = settings.phoneTopic, s.gps.lastFix != nil else { return }
        let nearest = s.targets.sorted { $0.distanceM < $1.distanceM }.prefix(settings.phoneWaypoints)
            .compactMap { t in located[t.target.id].map { (ref: t.target, at: $0) } }
        let ids = Set(nearest.map(\.ref.id))
        guard ids != phoneSet else { return }
        let p = OwnTracksLayout.setWaypoints(Array(nearest), radius: settings.phoneRadius, phoneTopic: phone)
        if publishUntracked(p) { phoneSet = ids }
    }
}
