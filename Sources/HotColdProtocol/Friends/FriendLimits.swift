/// The friends feature's caps (see PROTOCOL.md, "Friends"; the contract in the friends spec).
public enum FriendLimits {
    /// Follows one Unix user may hold.
    public static let followsPerUser = 100
    /// Friends on the radar at once.
    public static let radarFriends = 200
    /// Feed items kept (the oldest are dropped beyond it).
    public static let feedItems = 10_000
    /// A feed item's note (characters).
    public static let noteLength = 500
    /// A friend's display name (characters).
    public static let nameLength = 64
    /// Items in one `feed` reply.
    public static let feedPage = 200
    /// Likers listed per item in a `feed` reply (`likes` counts them all).
    public static let likersListed = 20
    /// Likes received for one of this car's own items (distinct likers).
    public static let likesPerItem = 10_000
    /// A friend fix may be this old (seconds) …
    public static let fixMaxAge = 24.0 * 3600
    /// … or this far in the future (seconds), against the daemon's clock.
    public static let fixMaxAhead = 60.0
    /// Largest accuracy (metres) and speed (m/s) a friend fix may state.
    public static let fixMaxAccuracy = 10_000.0
    public static let fixMaxSpeed = 150.0
}
