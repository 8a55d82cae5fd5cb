#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

extension Bridge {
    /// How one daemon connection ended.
    struct SessionEnd {
        var reason: String
        /// The daemon accepted `watch` on it at least once.
        var streamed: Bool
    }

    /// Where the daemon's stream stands on one connection.
    enum StreamState: Equatable {
        /// Not asked for (broker away, backlog, or waiting to ask again after a refusal).
        case off
        /// `watch` sent, its `WATCH` reply not read yet; events before it are from an older request.
        case requested
        /// Events flow.
        case on
    }

    /// One daemon connection: asks for the stream when the broker is there, holds it when not,
    /// relays, and returns when the connection ends.
    func session(_ connection: LineClient) -> SessionEnd {
        var stream = StreamState.off
        var streamed = false
        var expectReset: UInt64?
        var pausedForBacklog = false
        var watchBackoff = Backoff(initial: .milliseconds(500), cap: .seconds(max(1, settings.daemonReconnectMax * 3)))
        var nextWatch = ContinuousClock.now
        statusOutstanding = false
        statusWanted = true
        lastReport = nil
        while !stopping {
            persist()
            let (connected, unacked) = shared.withLock { ($0.brokerConnected, $0.ledger.unacknowledged) }
            if unacked >= settings.maxPending, !pausedForBacklog {
                pausedForBacklog = true
                log("\(settings.maxPending) messages await the broker's acknowledgement; holding the daemon's stream")
            } else if pausedForBacklog, unacked < settings.maxPending / 2 {
                pausedForBacklog = false
            }
            let wanted = connected && !pausedForBacklog
            if !wanted, stream != .off {
                // Events already on their way are read and left: `since` asks for them again.
                do { try connection.send(.watch(WatchRequest(enable: false))) } catch { return SessionEnd(reason: error.description, streamed: streamed) }
                stream = .off
            }
            if wanted, stream == .off, ContinuousClock.now >= nextWatch {
                let since = shared.withLock { $0.ledger.lastHanded }
                // Past 2^53 a number is not exact in JSON: the protocol refuses it, so resume live.
                let resume = (since ?? 0) <= UInt64(Limits.maxInteger) ? Int(since ?? 0) : nil
                do { try connection.send(.watch(WatchRequest(classes: watchClasses, since: resume))) } catch {
                    return SessionEnd(reason: error.description, streamed: streamed)
                }
                expectReset = since
                stream = .requested
            }
            waitingFor = stream == .on ? nil
                : !connected ? "the broker \(settings.client.host):\(settings.client.port)"
                : pausedForBacklog ? "\(unacked) PUBACKs from the broker" : waitingFor
            reportIfDue(connection, stream: stream)
            if stream == .on {
                republishIfNewSession()
                requestStatusIfDue(connection)
                heartbeatIfDue()
            }
            let line: String?
            do {
                line = try connection.readLine(timeout: 0.1)
            } catch {
                if case .timeout = error { continue }
                return SessionEnd(reason: error.description, streamed: streamed)    // lost, or a line over the cap
            }
            guard let line else { return SessionEnd(reason: "the daemon closed the connection", streamed: streamed) }
            switch LineClass.of(line) {
            case FixEvent.wireClass:
                // The car's position as it happens (live only: nothing to acknowledge).
                guard stream == .on else { continue }
                takeFix(line)
            case let cls? where Self.relayedClasses.contains(cls):
                guard stream == .on else { continue }    // from a stream we turned off; replayed later
                let failed = cls == RecordEvent.wireClass || cls == LikeEvent.wireClass ? takeFriendEvent(line, class: cls, expectReset: &expectReset)
                    : takeEvent(line, expectReset: &expectReset)
                if let why = failed {
                    stream = .off
                    nextWatch = ContinuousClock.now + watchBackoff.nextDelay()
                    waitingFor = why
                }
            case "FOLLOWING_CHANGED":
                inbox.poke()    // the forwarder asks `following` again at once
            case GapEvent.wireClass:
                // A hole in the daemon's log (its disk was full or stalled) crossed by a replay:
                // say which events cannot be published, and move past them.
                guard stream == .on, let gap = (try? GapEvent.decode(line: line)) ?? nil,
                      let last = gap.seq.flatMap({ UInt64(exactly: $0) }) else { continue }
                let known = shared.withLock { $0.ledger.lastHanded }
                if let known, last <= known { continue }
                log("the daemon's log lost events \(gap.firstSeq)–\(last) (\(gap.lost) in all: \(gap.reason)); they cannot be published")
                shared.withLock { $0.ledger.handed(seq: last, messages: 0) }
                lastSeqSeen = last
            case "WATCH":
                guard let reply = try? WireCoding.decode(WatchReply.self, from: line) else {
                    return SessionEnd(reason: "an unreadable WATCH reply: \(line.prefix(200))", streamed: streamed)
                }
                guard reply.enable, stream == .requested else { continue }
                stream = .on
                streamed = true
                watchBackoff.reset()
                waitingFor = nil
                let recovered = daemonFailures.recovered()
                log("streaming from the daemon after sequence number \(reply.since.map(String.init) ?? "-")"
                    + " (\(reply.replay ?? 0) from its log)" + (recovered.map { ", \($0)" } ?? ""))
                if let gap = reply.sinceGap {
                    log("the daemon's log no longer holds the events after \(reply.since ?? 0) up to \(gap - 1): they cannot be published")
                }
            case "STATUS":
                statusOutstanding = false
                do {
                    absorb(try StatusReply(bridgeLine: line))
                    _ = readFailures.recovered()
                } catch {
                    if let l = readFailures.failed("unreadable STATUS: \(error)") { log(l) }
                }
            case "ERROR":
                let e = try? WireCoding.decode(ErrorReply.self, from: line)
                switch e?.command {
                case "report" where e?.field == "device" && reportsDevice:
                    // A daemon before protocol 1.9: it cannot learn this car's name; report without it.
                    reportsDevice = false
                    lastReport = nil
                case "report":
                    // A daemon before protocol 1.3: it cannot show the bridge in `status`.
                    if daemonTakesReports { log("the daemon does not take reports: \(e?.message ?? line)") }
                    daemonTakesReports = false
                case "watch" where e?.field == "classes" && fixStream:
                    // A daemon before protocol 1.9 knows no FIX: the whole stream, and
                    // positions from its status, as before.
                    log("the daemon has no FIX stream (\(e?.message ?? line)); positions come from its status every "
                        + "\(settings.statusInterval) s")
                    fixStream = false
                    stream = .off
                    nextWatch = ContinuousClock.now
                case "status":
                    statusOutstanding = false
                    if let l = readFailures.failed("the daemon refused status: \(e?.message ?? line)") { log(l) }
                case "watch":
                    // Refused (`busy`: every replay slot taken): ask again later on this connection.
                    let wait = watchBackoff.nextDelay()
                    stream = .off
                    nextWatch = ContinuousClock.now + wait
                    waitingFor = "the daemon (it refused watch: \(e?.code.rawValue ?? "?"), \(e?.message ?? line))"
                    if let l = daemonFailures.failed("the daemon refused watch: \(e?.message ?? line)") {
                        log("\(l); asking again with backoff")
                    }
                default:
                    // Anything else ends the connection (a dropped client, a daemon going away):
                    // the daemon closes it; say what it said.
                    if let l = daemonFailures.failed("the daemon says: \(e?.message ?? line)") { log(l) }
                }
            default:
                break    // VERSION, REPORT, … and classes added later
            }
        }
        return SessionEnd(reason: "stopping", streamed: streamed)
    }

    /// Publishes one event line; returns why the stream must pause (a publish libmosquitto
    /// refused outright), or nil.
    private func takeEvent(_ line: String, expectReset: inout UInt64?) -> String? {
        let e: EventMessage
        do { e = try EventMessage(bridgeLine: line) } catch {
            if let l = readFailures.failed("skipped an event the bridge cannot read: \(error)") { log(l) }
            return nil
        }
        guard isNew(e.sequence, expectReset: &expectReset) else { return nil }
        if settings.layout == .owntracks, settings.share.sharesPositions, let id = e.event.target?.id, waypoints[id] == nil {
            statusWanted = true
        }
        switch e.event {
        case .arrived, .departed, .gps: statusWanted = true    // the state (visits, GPS) changed
        case .proximity: break
        }
        notePassage(e.event)
        var wtst = 0
        if settings.layout == .owntracks, let t = e.event.target, e.event.className != Event.proximityClass {
            // The region's creation time (the waypoint's `tst` on the phone), kept before it is sent.
            wtst = regions.stamp(t.id, now: regionClock.now(box: Date(), monotonic: monotonicSeconds))
            do { try regions.save() } catch {
                if let l = phoneProblem.failed("cannot keep the regions' creation times: \(error)") { log(l) }
            }
        }
        let pubs = SharedPublications.forEvent(e, settings: settings, waypoint: e.event.target.flatMap { waypoints[$0.id] },
                                               accuracy: lastAccuracy, wtst: wtst)
        return publish(pubs, seq: e.sequence)
    }

    /// RECORD (shared as a feed item of kind record) and LIKE (for the item's author, on this
    /// device's own `…/likes/AUTHOR/DEVICE`, where the topic names the liker): each
    /// under its event's number, so the ack ledger makes them at least once, as every event.
    func takeFriendEvent(_ line: String, class name: String, expectReset: inout UInt64?) -> String? {
        var pubs: [Publication] = []
        let seq: UInt64?
        do throws(WireError) {
            if name == "RECORD" {
                let r = try FriendEventLine.record(line, author: settings.user, device: settings.device)
                seq = r.seq
                if let item = r.item, settings.share.sharesVisits, settings.shareRecords {
                    pubs.append(Publication(topic: settings.friendTopics.feed, payload: WireCoding.line(item)))
                }
            } else {
                // A like needs this device's name as the liker; one of its own items needs no message.
                let l = try FriendEventLine.like(line, liker: friendTopics.own)
                seq = l.seq
                if let to = l.to, let like = l.like {
                    pubs.append(Publication(topic: settings.friendTopics.likes(of: to), payload: BrokerLike(like, for: likeDialect(of: to)).payload))
                }
            }
        } catch {
            if let l = readFailures.failed("skipped a \(name) event the bridge cannot read: \(error)") { log(l) }
            return nil
        }
        guard isNew(seq, expectReset: &expectReset) else { return nil }
        return publish(pubs, seq: seq)
    }

    /// Whether event `seq` is one the bridge has not handed yet (a replay overlaps what was
    /// handed); follows the daemon when its numbering went back (a new log).
    private func isNew(_ seq: UInt64?, expectReset: inout UInt64?) -> Bool {
        guard let seq else { return true }
        if let after = expectReset {
            expectReset = nil
            if seq <= after {
                log("the daemon's sequence numbers went back (\(after) → \(seq)); following them")
                shared.withLock { $0.ledger = AckLedger(resumingAfter: seq - 1) }
                saved = nil
            }
        }
        let known = shared.withLock { $0.ledger.lastHanded }
        if let known, seq <= known { return false }
        lastSeqSeen = seq
        return true
    }

    private func publish(_ pubs: [Publication], seq: UInt64?) -> String? {
        if let seq { shared.withLock { $0.ledger.handed(seq: seq, messages: pubs.count) } }
        for (i, p) in pubs.enumerated() {
            do {
                let mid = try client.publish(p)
                shared.withLock { $0.register(mid: mid, seq: seq, topic: p.topic) }
            } catch {
                if let mid = error.queuedMid {
                    // Queued for the next connection (the broker just went): it is handed; never again.
                    shared.withLock { $0.register(mid: mid, seq: seq, topic: p.topic) }
                    continue
                }
                if let seq { shared.withLock { $0.ledger.withdraw(seq: seq, unsent: pubs.count - i) } }
                let why = "cannot publish event \(seq.map(String.init) ?? "?"): \(error)"
                if let l = daemonFailures.failed(why) { log("\(l); asking the daemon for it again with backoff") }
                return why
            }
        }
        return nil
    }
}
