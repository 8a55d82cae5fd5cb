import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// The friends' commands (protocol 1.6; see PROTOCOL.md "Friends"): follows per Unix user,
/// the feed stored once per (author, device, seq), likes given and received, and the events
/// that tell the bridge (FOLLOWING_CHANGED, FEED, LIKE, RECORD).
extension DaemonCommands {
    func follow(_ f: FollowRequest, _ store: Store, user: String) throws -> String {
        if f.follow, followed.isOwn(f.who) {
            throw ProtocolError(.badField, command: "follow", field: "who",
                                "\(f.who) is this car itself (its bridge publishes as \(followed.own?.description ?? f.who.description)): "
                                + "follow other cars; your own finds are in your feed already")
        }
        let change = f.follow ? try store.follow(f.who, user: user) : try store.unfollow(f.who, user: user)
        if change.changed {
            followed.reset(try store.followedDevices())
            // Nobody here follows it any more: off the radar now, not after forget_after
            // (a club member's next fix brings it back).
            if !f.follow, !followed.contains(f.who) { host.forgetFriend(f.who) }
            host.announce(.followingChanged(FollowingChangedEvent(time: Date(), version: change.version)))
        }
        return WireCoding.line(OKReply(cmd: f.follow ? "follow" : "unfollow", new: change.changed))
    }

    func following(_ f: FollowingRequest, _ store: Store, user: String) throws -> String {
        let (follows, version) = try store.following(user: f.all ? nil : user)
        return WireCoding.line(FollowingReply(following: follows.map { .init(who: $0.who, since: $0.since) },
                                              version: f.all ? version : nil))
    }

    func feedItem(_ r: FeedItemRequest, _ store: Store) throws -> String {
        let isNew = try store.addFeedItem(r.item).isNew
        if isNew { host.announce(.feed(FeedEvent(time: Date(), item: r.item))) }
        return WireCoding.line(OKReply(cmd: "feed_item", new: isNew))
    }

    func like(_ r: LikeRequest, _ store: Store, user: String) throws -> String {
        let cmd = r.like ? "like" : "unlike"
        if followed.isOwn(r.item) {
            throw ProtocolError(.badField, command: cmd, field: "item",
                                "\(r.item) is one of this car's own finds; likes are for friends' finds (its likes come from them)")
        }
        switch try store.like(r.item, user: user, r.like) {
        case .noSuchItem:
            throw ProtocolError(.notFound, command: cmd, field: "item", "no feed item \"\(r.item)\" (hotcold feed --world lists them)")
        case .done(let changed):
            if changed {
                host.announce(.like(LikeEvent(time: Date(), item: r.item.description, like: r.like, user: user)))
            }
            return WireCoding.line(OKReply(cmd: cmd, new: changed))
        }
    }

    func likeReceived(_ r: LikeReceivedRequest, _ store: Store) throws -> String {
        switch try store.likeReceived(itemSeq: r.itemSeq, liker: r.liker.description, r.like, at: r.time) {
        case .noSuchItem:
            throw ProtocolError(.notFound, command: "like_received", field: "item_seq", "no own feed item with seq \(r.itemSeq)")
        case .done(let changed):
            if changed {
                let place = try? store.ownFeedItem(seq: r.itemSeq)?.place
                host.announce(.likeReceived(LikeReceivedEvent(time: Date(), item: followed.ownItemID(seq: r.itemSeq),
                                                              liker: r.liker.description, like: r.like, place: place ?? nil)))
            }
            return WireCoding.line(OKReply(cmd: "like_received", new: changed))
        }
    }

    /// The feed, this car's own finds under the one id its followers know them by; a user's
    /// own records to that user (and the administrator) only.
    func feed(_ r: FeedRequest, _ store: Store, client: ClientInfo) throws -> String {
        WireCoding.line(FeedReply(items: try store.feed(user: Self.user(client), world: r.world, limit: r.limit, before: r.before,
                                                        own: followed.own, seesEveryone: Self.isAdministrator(client))))
    }

    /// The bridge's `report` names the device this car is on the broker: kept (in memory at
    /// once, in the database off the loop) when it is new.
    func noteOwnDevice(_ who: FriendID?) {
        guard let who, followed.setOwn(who) else { return }
        logger.info("friends: this car is \(who) on the broker (its bridge says); its own finds show as \(who)/SEQ")
        guard let store = store?.store else { return }
        DispatchQueue.global(qos: .utility).async { [logger] in
            do { try store.setOwnDevice(who) } catch { logger.warning("friends: cannot keep this car's name \(who): \(error)") }
        }
    }

    /// `friend_fix`, on the loop: checked against the clock and who is followed, then handed
    /// to the radar.
    func friendFix(_ f: FriendFixRequest) throws(ProtocolError) -> String {
        // The friend's clock is not compared with this box's (either may be years out); the
        // radar measures the friend's age from arrival (``EngineHost/friendFix(_:)``).
        guard FriendLimits.plausibleTimes.contains(f.time.timeIntervalSince1970) else {
            throw ProtocolError(.outOfRange, command: "friend_fix", field: "time",
                                "must be a time a GPS can give (1980–2137), got \(ISO8601.format(f.time))")
        }
        let isFollowed = followed.contains(f.who)
        guard f.club || isFollowed else {
            throw ProtocolError(.notFound, command: "friend_fix", field: "who",
                                "nobody here follows \(f.who) (hotcold follow \(f.who)), and it is not sent as a club member")
        }
        // Followed devices have room on the radar before club members' (the bridge's `club`
        // may lag a follow made here).
        try host.friendFix(f, followed: isFollowed)
        return WireCoding.line(OKReply(cmd: "friend_fix"))
    }

    /// After a store `rate` or `note`: a RECORD with the user's rating and note of the place,
    /// for the bridge to share. Nothing when the place cannot be read (the change is done).
    func announceRecord(_ r: StoreRequest, user: String) {
        let placeID: String
        switch r.operation {
        case .rate(let id, _), .note(let id, _): placeID = id
        default: return
        }
        guard let store = store?.store, let place = try? store.placeRecord(id: placeID),
              let mine = try? store.userState(placeID: placeID, user: user) else { return }
        // 0 stars is a rating (a poor one), shared like any other; nil only when not rated.
        let stars = mine.rating.map(\.stars).flatMap { FeedItem.ratings.contains($0) ? $0 : nil }
        host.announce(.record(RecordEvent(time: Date(), user: user,
                                          place: .init(id: place.id, name: place.name, kind: place.kind.rawValue),
                                          rating: stars, note: mine.note?.text)))
    }
}
