#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// Hands what the broker brought for friends to the daemon — positions (`friend_fix`), feed
/// items (`feed_item`), likes of this car's items (`like_received`) — and keeps the bridge's
/// subscriptions in step with what the daemon's users follow (`following` `all`, polled every
/// status interval and at once on FOLLOWING_CHANGED).
///
/// It has its own daemon connection and thread: the daemon allows one write in flight per
/// connection, and a write waiting for its reply (or a busy daemon's backoff) must not hold up
/// the event stream the bridge publishes. A write the daemon cannot take now (`busy`) goes
/// back to the front of the inbox and is tried again after a backoff. One over a quota (the
/// radar holds 200 friends, a store's cap) is dropped and counted: it would be refused again
/// for as long as the quota is full, and at the front of the inbox it would hold every other
/// friend's message behind it. One it refuses (a bad field, a friend nobody follows) is
/// counted and logged, bounded, and dropped. Both counts show in `hotcold status`.
final class FriendForwarder: @unchecked Sendable {
    private let bridge: Bridge
    private var failures = RepeatedFailure()
    private var refusals = RepeatedFailure()
    private var quotas = RepeatedFailure()
    private(set) var forwarded = 0
    private(set) var refused = 0
    private var lastVersion: Int?

    init(bridge: Bridge) { self.bridge = bridge }

    func start() throws(BlockingThread.NotStarted) {
        try BlockingThread.start(name: "hotcold-mqtt.friends") { [self] in run() }
    }

    private func run() {
        var backoff = Backoff(initial: .milliseconds(200), cap: .seconds(max(0.2, bridge.settings.daemonReconnectMax)))
        while !bridge.stopping {
            let connection: LineClient
            do {
                connection = try LineClient(path: bridge.settings.socketPath)
                connection.maxLineBytes = Bridge.maximumReplyBytes
            } catch {
                if let l = failures.failed("friends: cannot reach the daemon: \(error)") { bridge.log(l) }
                pause(backoff.nextDelay())
                continue
            }
            let started = ContinuousClock.now
            let why = session(connection)
            if ContinuousClock.now - started > .seconds(5) { backoff.reset() }
            guard !bridge.stopping else { break }
            if let l = failures.failed("friends: daemon connection ended: \(why)") { bridge.log("\(l); reconnecting") }
            pause(backoff.nextDelay())
        }
    }

    private func pause(_ d: Duration) {
        let until = ContinuousClock.now + d
        while !bridge.stopping, ContinuousClock.now < until { BlockingThread.sleep(seconds: 0.05) }
    }

    /// One connection: returns why it ended.
    private func session(_ c: LineClient) -> String {
        let interval = Duration.milliseconds(Int(bridge.settings.statusInterval * 1000))
        var nextPoll = ContinuousClock.now
        var busy = Backoff(initial: .milliseconds(100), cap: .seconds(2))
        lastVersion = nil
        while !bridge.stopping {
            if ContinuousClock.now >= nextPoll {
                do { try pollFollowing(c) } catch { return error.description }
                nextPoll = ContinuousClock.now + interval
            }
            switch bridge.inbox.take(timeout: 0.25) {
            case .timedOut: continue
            case .poked:
                nextPoll = ContinuousClock.now
            case .item(let item):
                do {
                    try send(item, on: c)
                    settle(item)
                    busy.reset()
                    if let l = failures.recovered() { bridge.log("friends: the daemon takes writes again (\(l))") }
                } catch .refused(let e) where e.code == .busy {
                    bridge.inbox.putBack(item)
                    if let l = failures.failed("friends: the daemon cannot take \(item.command) now: \(e.message)") {
                        bridge.log("\(l); trying again with backoff")
                    }
                    pause(busy.nextDelay())
                } catch .refused(let e) where e.code == .quota {
                    settle(item)
                    let n = bridge.shared.withLock { s in s.friends.overQuota += 1; return s.friends.overQuota }
                    if let l = quotas.failed("friends: dropped a \(item.command) over the daemon's quota: \(e.message)") {
                        bridge.log("\(l) (\(n) dropped so far)")
                    }
                } catch .refused(let e) {
                    settle(item)
                    refused += 1
                    bridge.shared.withLock { $0.friends.daemonRefused += 1 }
                    if let l = refusals.failed("friends: the daemon refused \(item.command) (\(e.code.rawValue)): \(e.message)") {
                        bridge.log("\(l) (\(refused) refused so far)")
                    }
                } catch {
                    bridge.inbox.putBack(item)    // not lost: sent again on the next connection
                    return error.description
                }
            }
        }
        return "stopping"
    }

    /// A feed item or like is done with: the inbox may empty its journal.
    private func settle(_ item: FriendInbox.Item) {
        if case .fix = item { return }
        bridge.inbox.settled()
    }

    private func pollFollowing(_ c: LineClient) throws(ClientError) {
        let reply = try c.call(.following(FollowingRequest(all: true)), expecting: FollowingReply.self)
        guard reply.version == nil || reply.version != lastVersion else { return }
        lastVersion = reply.version
        bridge.follow(Set(reply.following.compactMap { FriendID(parsing: $0.who) }))
    }

    private func send(_ item: FriendInbox.Item, on c: LineClient) throws(ClientError) {
        let request: Request
        switch item {
        // What arrived is already the request: checked at the edge, handed on as it is.
        case .fix(let f): request = .friendFix(f)
        case .feed(let item): request = .feedItem(FeedItemRequest(item: item))
        case .like(let l): request = .likeReceived(l)
        }
        _ = try c.call(request, expecting: OKReply.self)
        forwarded += 1
    }
}

extension FriendInbox.Item {
    var command: String {
        switch self {
        case .fix: "friend_fix"
        case .feed: "feed_item"
        case .like: "like_received"
        }
    }
}
