import HotColdProtocol

/// Which topics and payloads the bridge publishes (`[topics] layout` in the configuration).
public enum TopicLayout: String, Sendable, CaseIterable {
    /// `hotcold/<user>/<device>/{event,visit,state,status}`: the daemon's own JSON, with `seq`.
    case hotcold
    /// OwnTracks' format: `_type: location` on `owntracks/<user>/<device>`, `_type: transition`
    /// on `…/event`, so OwnTracks Recorder, Home Assistant and Node-RED take it as it is.
    case owntracks

    /// The first topic level when the configuration gives none.
    var defaultPrefix: String {
        switch self {
        case .hotcold: "hotcold"
        case .owntracks: "owntracks"
        }
    }
}

/// The topics of one device: `<prefix>/<user>/<device>` and its sub-topics.
public struct Topics: Sendable, Equatable {
    var base: String

    public init(prefix: String, user: String, device: String) {
        base = "\(prefix)/\(user)/\(device)"
    }

    var event: String { base + "/event" }
    var visit: String { base + "/visit" }
    var state: String { base + "/state" }
    var status: String { base + "/status" }
    /// Retained: the last fix as Home Assistant's device tracker reads it.
    var location: String { base + "/location" }
    /// Retained: the nearest tracked target (distance, tier, trend).
    var nearest: String { base + "/nearest" }
    /// Retained: the last ARRIVED event.
    var arrival: String { base + "/arrival" }
    /// Not retained, QoS 1: this device's feed items (`FEED_ITEM`: arrivals, records).
    var feed: String { base + "/feed" }
    /// QoS 1: this device's like (or its withdrawal) of one of `author`'s feed items, on this
    /// device's own topics (`…/likes/AUTHOR/DEVICE`): the topic names the liker, so a broker's
    /// ACL that lets each user write only under its own prefix keeps anyone from liking in
    /// another's name, and the author's bridge reads the liker from the topic.
    func likes(of author: FriendID) -> String { base + "/likes/" + author.description }

    /// Why `level` cannot be one topic level, or nil when it can: MQTT reserves `+` and `#`
    /// (wildcards) and `/` (the separator); NUL is refused, and a level must not be empty.
    static func problem(level: String) -> String? {
        if level.isEmpty { return "must not be empty" }
        if level.utf8.count > 256 { return "longer than 256 bytes" }
        for ch in level.unicodeScalars {
            switch ch {
            case "/": return "must not contain \"/\""
            case "+", "#": return "must not contain the MQTT wildcard \"\(ch)\""
            case "\u{0}"..."\u{1F}", "\u{7F}": return "must not contain control characters"
            default: continue
            }
        }
        return nil
    }
}
