import Foundation
import HotColdCore
import HotColdProtocol

/// Friends and feed items in words, one format for `feed`, `following`, `status` and `watch`.
enum FriendText {
    /// "12 min ago", "just now", "3 h ago", "2 d ago".
    static func ago(_ time: Date, now: Date) -> String {
        let s = now.timeIntervalSince(time)
        if s < 60 { return "just now" }
        if s < 3600 { return "\(Int(s / 60)) min ago" }
        if s < 86_400 { return "\(Int(s / 3600)) h ago" }
        return "\(Int(s / 86_400)) d ago"
    }

    /// "Jane · ute — arrived at the Big Banana, 12 min ago ★4 'Best milkshake on the coast' (5 words) · 2 likes"
    static func line(_ e: FeedEntry, now: Date) -> String {
        let i = e.item
        let who = e.own == true || i.author == FriendID.selfAuthor ? "you" : "\(i.author) · \(i.device)"
        // "the Big Banana", but "Koala Crossing" and "The Big Prawn" as they are.
        let place = i.place.kind == "bigthing" && i.place.name.hasPrefix("Big ") ? "the \(i.place.name)" : i.place.name
        let what = i.kind == "arrived" ? "arrived at \(place)" : "rated \(place)"
        var s = "\(who) — \(what), \(ago(i.time, now: now))"
        if let r = i.rating { s += " ★\(r)" }
        if let n = i.note, !n.isEmpty { s += " '\(n)'" }
        if e.likes > 0 {
            // Who liked it, by name ("liked by kim, ann and 3 more"); the reader's own like is said apart.
            s += " · \(e.likes) like\(e.likes == 1 ? "" : "s")"
            let names = e.likers.map { $0 == FriendID.selfAuthor ? "you" : $0 }
            if !names.isEmpty {
                s += ": " + names.joined(separator: ", ") + (e.likes > names.count ? " and \(e.likes - names.count) more" : "")
            }
        }
        if e.likedByMe { s += " (you like it)" }
        return s + "  [\(e.id)]"
    }

    /// A friend on the radar: "1.5 km NW cool colder" or "stale 7 min" or "not on the radar".
    static func radar(_ f: StatusReply.Friend?) -> String {
        guard let f else { return "not on the radar" }
        if f.stale { return "silent \(Int(f.ageS / 60)) min (position unknown)" }
        guard let d = f.distanceM, let b = f.bearingDeg, let tier = f.tierName else { return "on the radar, distance unknown (no fix here)" }
        var s = "\(DistanceFormat.text(d)) \(DistanceFormat.compass(b)) \(tier) \(f.trend)"
        if f.arrived { s += " (together)" }
        return s
    }

    /// The friends' events as `watch` shows them (nil for other lines).
    static func event(_ line: String, now: Date) -> String? {
        func clock(_ d: Date) -> String { LocalTime.clock(d) }
        switch WireCoding.className(of: line) {
        case FeedEvent.wireClass:
            guard let e = try? WireCoding.decode(FeedEvent.self, from: line) else { return nil }
            let entry = FeedEntry(item: e.item, id: e.item.id?.description ?? "?", likes: 0, likers: [], likedByMe: false)
            return "\(clock(e.time))  feed: " + Self.line(entry, now: now)
        case LikeEvent.wireClass:
            guard let e = try? WireCoding.decode(LikeEvent.self, from: line) else { return nil }
            return "\(clock(e.time))  \(e.user) \(e.like ? "likes" : "no longer likes") \(e.item)"
        case RecordEvent.wireClass:
            guard let e = try? WireCoding.decode(RecordEvent.self, from: line) else { return nil }
            var s = "\(clock(e.time))  \(e.user) rated \(e.place.name)"
            if let r = e.rating { s += " ★\(r)" }
            if let n = e.note { s += " '\(n)' (\(e.noteWords ?? 0) words)" }
            return s
        case LikeReceivedEvent.wireClass:
            guard let e = try? WireCoding.decode(LikeReceivedEvent.self, from: line) else { return nil }
            let at = e.place.map { " at \($0.name)" } ?? ""
            return "\(clock(e.time))  \(e.liker) \(e.like ? "likes" : "no longer likes") your find\(at) [\(e.item)]"
        case FollowingChangedEvent.wireClass:
            guard let e = try? WireCoding.decode(FollowingChangedEvent.self, from: line) else { return nil }
            return "\(clock(e.time))  follows changed (version \(e.version))"
        default:
            return nil
        }
    }
}
