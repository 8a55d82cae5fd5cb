import HotColdProtocol
/// Which topics the bridge subscribes to for friends, and what an incoming topic means.
///
/// A followed `USER/DEVICE` is looked for in both layouts, whatever the bridge's own:
/// `<p>/USER/DEVICE/location` and `<p>/USER/DEVICE/feed` for each hotcold prefix `p`
/// (`hotcold`, and the bridge's own prefix when it differs), and `owntracks/USER/DEVICE`.
/// A `[friends] club` prefix adds `<club>/+/+/location` and `<club>/+/+/feed`.
///
/// Every message names its sender by the topic it is published on, never by its payload: a
/// broker's ACL lets each user write only under its own prefix, so the topic is the one part
/// of a message a stranger cannot forge. Likes therefore travel on the liker's own topics,
/// `<p>/LIKER/DEVICE/likes/OWNUSER/OWNDEVICE`, and the bridge subscribes to
/// `<p>/+/+/likes/OWNUSER/OWNDEVICE` (and the same under the club). Its own device is never a
/// friend, even when a wildcard brings its own messages back.
///
/// ```swift
/// let t = FriendTopics(own: FriendID(parsing: "bob/car"), ownTopics: Topics(prefix: "hotcold", user: "bob", device: "car"))
/// t.subscriptions(following: [FriendID(parsing: "jane/ute")!])
/// // ["hotcold/+/+/likes/bob/car", "hotcold/jane/ute/feed", "hotcold/jane/ute/location", "owntracks/jane/ute"]
/// t.classify("owntracks/jane/ute")               // (jane/ute, .ownTracks, club: false)
/// t.classify("hotcold/jane/ute/likes/bob/car")   // (jane/ute, .likes, club: false): jane liked
/// ```
struct FriendTopics: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case location
        case ownTracks
        case feed
        /// A like of one of this device's own items; `who` is the liker (from the topic).
        case likes
    }

    struct Match: Sendable, Equatable {
        var who: FriendID
        var kind: Kind
        /// Matched through the club prefix only.
        var club: Bool

        init(who: FriendID, kind: Kind, club: Bool) {
            self.who = who
            self.kind = kind
            self.club = club
        }
    }

    /// This device (nil when its user or device is not a valid friend id: it then has no likes).
    var own: FriendID?
    var ownTopics: Topics
    var prefixes: [String]
    var club: String?

    static let ownTracksPrefix = "owntracks"

    init(own: FriendID?, ownTopics: Topics, club: String? = nil) {
        self.own = own
        self.ownTopics = ownTopics
        let ownPrefix = String(ownTopics.base.split(separator: "/").dropLast(2).joined(separator: "/"))
        prefixes = ownPrefix.isEmpty || ownPrefix == "hotcold" ? ["hotcold"] : ["hotcold", ownPrefix]
        self.club = club
    }

    /// Every topic filter for `following` (sorted, no duplicates).
    func subscriptions(following: Set<FriendID>) -> [String] {
        var out: Set<String> = []
        if let own {
            for p in prefixes { out.insert("\(p)/+/+/likes/\(own)") }
            if let club { out.insert("\(club)/+/+/likes/\(own)") }
        }
        for who in following where who != own {
            for p in prefixes {
                out.insert("\(p)/\(who)/location")
                out.insert("\(p)/\(who)/feed")
            }
            out.insert("\(Self.ownTracksPrefix)/\(who)")
        }
        if let club {
            out.insert("\(club)/+/+/location")
            out.insert("\(club)/+/+/feed")
        }
        return out.sorted()
    }

    /// What a message on `topic` is, or nil when it is none of the friends' topics (or this
    /// device's own).
    func classify(_ topic: String, following: Set<FriendID> = []) -> Match? {
        func tail(after prefix: String) -> [Substring]? {
            guard topic.hasPrefix(prefix + "/") else { return nil }
            return topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        }
        func friend(_ levels: [Substring], club: Bool) -> Match? {
            // A like: `LIKER/DEVICE/likes/OWNUSER/OWNDEVICE`, the liker named by the topic.
            if levels.count == 5, levels[2] == "likes", let own, levels[3] == own.user, levels[4] == own.device,
               let who = FriendID(user: String(levels[0]), device: String(levels[1])), who != own {
                return Match(who: who, kind: .likes, club: false)
            }
            guard levels.count == 3, let who = FriendID(user: String(levels[0]), device: String(levels[1])), who != own else { return nil }
            let kind: Kind
            switch levels[2] {
            case "location": kind = .location
            case "feed": kind = .feed
            default: return nil
            }
            return Match(who: who, kind: kind, club: club && !following.contains(who))
        }
        if let club, let levels = tail(after: club), let m = friend(levels, club: true) { return m }
        for p in prefixes {
            if let levels = tail(after: p), let m = friend(levels, club: false) { return m }
        }
        if let levels = tail(after: Self.ownTracksPrefix), levels.count == 2,
           let who = FriendID(user: String(levels[0]), device: String(levels[1])), who != own {
            return Match(who: who, kind: .ownTracks, club: false)
        }
        return nil
    }
}
