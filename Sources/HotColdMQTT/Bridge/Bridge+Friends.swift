#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

extension Bridge {
    /// Friends' side of the shared state: what is followed, what the broker was asked for, and
    /// what was turned away.
    struct FriendState {
        var following: Set<FriendID> = []
        /// Filters wanted now, and those the broker has (nil: not connected).
        var wanted: [String] = []
        var subscribed: Set<String>?
        /// Messages refused at the edge, and feed items or likes refused for a full inbox.
        var rejected = 0
        var inboxRefused = 0
        /// Messages over `maximumIncomingBytes` that reached the bridge anyway (a broker that
        /// ignores Maximum Packet Size), dropped unread.
        var oversized = 0
        /// Handed to the daemon and dropped: over its quota (a full radar), or refused for good.
        var overQuota = 0
        var daemonRefused = 0
        /// Friends whose latest `…/location` says their bridge reads `FRIEND_LIKE`; at most
        /// ``likeReadersCap`` (past it a like goes out under the old class, which every bridge reads).
        var readsFriendLike: Set<FriendID> = []
    }

    /// Enough for every followed device and a large club.
    static let likeReadersCap = 4096

    /// The class `author`'s bridge reads a like under, as far as its location has said.
    func likeDialect(of author: FriendID) -> LikeDialect {
        shared.withLock { $0.friends.readsFriendLike.contains(author) } ? .friendLike : .legacy
    }

    /// Notes what a friend's location said of its version.
    private func noteLikeDialect(_ who: FriendID, _ reads: LikeDialect) {
        shared.withLock { s in
            if reads == .legacy {
                s.friends.readsFriendLike.remove(who)
            } else if s.friends.readsFriendLike.count < Self.likeReadersCap {
                s.friends.readsFriendLike.insert(who)
            }
        }
    }

    /// The largest message the bridge takes from the broker: the largest of the friends'
    /// messages (a feed item, 8 KiB); Home Assistant's birth message is a word.
    static let maximumIncomingBytes = max(FeedItem.maximumPayloadBytes, FriendFixRequest.maximumPayloadBytes,
                                          BrokerLike.maximumPayloadBytes)

    /// A message too large to read (libmosquitto's thread): counted and logged, bounded.
    func receivedOversized(topic: String, bytes: Int) {
        let n = shared.withLock { s in s.friends.oversized += 1; return s.friends.oversized }
        if n <= 20 || RepeatedFailure.isPowerOfTen(n) {
            log("ignored a message of \(bytes) bytes on \(topic.prefix(200)) (over \(Self.maximumIncomingBytes), not read; \(n) so far)")
        }
    }

    /// A message on one of the friends' topics (libmosquitto's thread): checked, then queued for
    /// the daemon. Anything else is not the friends' business and is ignored.
    func receivedFriendMessage(topic: String, payload: [UInt8]) -> Bool {
        guard let read = friendItem(topic: topic, payload: payload) else { return false }
        guard let item = read else { return true }
        if !inbox.put(item, raw: (topic, payload)) {
            let n = shared.withLock { s in s.friends.inboxRefused += 1; return s.friends.inboxRefused }
            if n == 1 || RepeatedFailure.isPowerOfTen(n) {
                log("the friends inbox is full (\(inbox.capacity) feed items and likes or \(inbox.maximumBytes) bytes of them, "
                    + "\(inbox.maximumFriends) friends waiting for the daemon): refused a message on \(topic) (\(n) refused so far)")
            }
        }
        return true
    }

    /// What a message on `topic` is for the daemon: nil when it is none of the friends' topics;
    /// `.some(nil)` when it is, but brings nothing (an empty payload, or one refused at the
    /// edge: logged, bounded, and counted).
    func friendItem(topic: String, payload: [UInt8]) -> FriendInbox.Item?? {
        let following = shared.withLock { $0.friends.following }
        guard let m = friendTopics.classify(topic, following: following) else { return nil }
        do throws(FriendMessageError) {
            switch m.kind {
            case .location:
                guard let (fix, reads) = try FriendFixRequest.hotcoldLocation(payload, who: m.who) else { return .some(nil) }
                noteLikeDialect(m.who, reads)
                var f = fix
                f.club = m.club
                return .some(.fix(f))
            case .ownTracks:
                return .some(try FriendFixRequest.ownTracks(payload, who: m.who).map { f in var f = f; f.club = m.club; return .fix(f) })
            case .feed:
                return .some(try FeedItem.fromBroker(payload, who: m.who).map { i in var i = i; i.club = m.club ? true : nil; return .feed(i) })
            case .likes:
                return .some(try BrokerLike.fromBroker(payload, liker: m.who).map { .like($0) })
            }
        } catch {
            let n = shared.withLock { s in s.friends.rejected += 1; return s.friends.rejected }
            if n <= 20 || RepeatedFailure.isPowerOfTen(n) {
                log("ignored a message on \(topic): \(error) (\(n) ignored so far)")
            }
            return .some(nil)
        }
    }

    /// At start: the feed items and likes the journal kept from before a restart, queued again
    /// as they are read (never the whole file in memory); those over the inbox's budget are
    /// dropped and counted with the inbox's refusals.
    func restoreInbox(_ journal: InboxJournal) {
        let size = journal.size()
        do {
            let (queued, dropped) = try inbox.restore { topic, payload in friendItem(topic: topic, payload: payload) ?? nil }
            if dropped > 0 { shared.withLock { $0.friends.inboxRefused += dropped } }
            if queued + dropped > 0 {
                log("\(queued) feed items and likes from before a restart are passed on again (\(journal.path), \(size) bytes)"
                    + (dropped > 0 ? "; \(dropped) dropped: over the inbox's \(inbox.maximumBytes) bytes" : ""))
            }
        } catch {
            log("cannot read the friends inbox journal: \(error)")
        }
    }

    /// The devices the daemon's users follow (`following` `all`): subscribes to what is new and
    /// leaves what is not followed any more.
    func follow(_ following: Set<FriendID>) {
        let wanted = friendTopics.subscriptions(following: following)
        let change = shared.withLock { s -> (add: [String], drop: [String])? in
            s.friends.following = following
            guard wanted != s.friends.wanted else { return nil }
            s.friends.wanted = wanted
            // Not connected: `subscribeFriends` subscribes to all of them on connect.
            guard let have = s.friends.subscribed else { return ([], []) }
            let w = Set(wanted)
            s.friends.subscribed = w
            return (wanted.filter { !have.contains($0) }, have.subtracting(w).sorted())
        }
        guard let change else { return }
        for t in change.add { do { try client.subscribe(t) } catch { log("cannot subscribe to \(t): \(error)") } }
        for t in change.drop { do { try client.unsubscribe(t) } catch { log("cannot unsubscribe from \(t): \(error)") } }
        log("following \(following.count) device\(following.count == 1 ? "" : "s") (\(wanted.count) subscriptions)")
    }

    /// On each connection: every friends' subscription again (the session may be new).
    func subscribeFriends() {
        let wanted = shared.withLock { s in
            s.friends.subscribed = Set(s.friends.wanted)
            return s.friends.wanted
        }
        for t in wanted { do { try client.subscribe(t) } catch { log("cannot subscribe to \(t): \(error)") } }
    }
}
