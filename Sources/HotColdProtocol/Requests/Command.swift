/// Every command the daemon knows, by its `cmd` name. PROTOCOL.md documents each (a test
/// holds it to that).
public enum Command: String, Sendable, CaseIterable, Codable {
    case version, status, poll, watch
    case hunt, roam
    case store
    case search, place, near, visits, observations, outbox
    case export, download
    case upload, chunk
    case `import`, submit
    case report
    case targets
    case follow, unfollow, following
    case friendFix = "friend_fix"
    case feedItem = "feed_item"
    case feed, like, unlike
    case likeReceived = "like_received"
    /// `hotcold-sync`'s outbox and catalogue ops (``SyncRequest``).
    case sync
    /// A trusted proxy acts for one user on this connection (``ActForRequest``).
    case actFor = "act_for"

    /// Whether the command changes state, and so needs a user allowed to write.
    public var writes: Bool {
        switch self {
        case .hunt, .roam, .store, .upload, .chunk, .import, .submit, .report: true
        case .follow, .unfollow, .friendFix, .feedItem, .like, .unlike, .likeReceived: true
        // Even its reads: the outbox holds every user's queued requests.
        case .sync: true
        default: false
        }
    }
}
