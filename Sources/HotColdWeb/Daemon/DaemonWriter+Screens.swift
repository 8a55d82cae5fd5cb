import HotColdProtocol

/// The requests the page's later screens send (issue 27: the whole app on the phone), beside the
/// live display's in ``DaemonWriter/replyClass(_:kind:)``. Kept apart so the writer's own rules
/// stay as they were; every one is the daemon's existing request, forwarded unchanged.
///
/// Writes: `store` with `rename`, `delete` (a place of one's own), `observe` (a field
/// observation), `amend` and `unobserve` (one's own observation: the daemon checks whose); `like`/`unlike` of a feed item; `follow`/`unfollow` of a friend's device;
/// `submit` of a new Big Thing (without a photo).
/// Reads: `feed`, `following` and `observations`. Never the bridge's own commands
/// (`friend_fix`, `feed_item`, `like_received`), `report`, `sync`, `import` or uploads: the page
/// has no business speaking for the broker, the web API or a file.
extension DaemonWriter {
    static func screensReplyClass(_ r: Request, kind: Kind) -> String? {
        switch (kind, r) {
        case (.write, .store(let s)):
            switch s.operation {
            case .rename, .delete, .observe, .amend, .unobserve: return "STORE"
            default: return nil
            }
        case (.write, .like), (.write, .follow): return "RESULT"
        // A photo names an upload made earlier on the same connection; each forwarded request
        // has a connection of its own, so only a submission without one passes here.
        case (.write, .submit(let s)): return s.photo == nil ? "SUBMIT" : nil
        case (.read, .feed): return "FEED"
        case (.read, .following(let f)):
            // `all` is the bridge's view over every user: not the page's.
            return f.all ? nil : "FOLLOWING"
        case (.read, .observations): return "OBSERVATIONS"
        default: return nil
        }
    }
}
