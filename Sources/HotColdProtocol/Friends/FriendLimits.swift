/// The friends feature's caps (see PROTOCOL.md, "Friends"; the contract in the friends spec).
public enum FriendLimits {
    /// Follows one Unix user may hold.
    public static let followsPerUser = 100
    /// Friends on the radar at once.
    public static let radarFriends = 200
    /// Feed items kept: beyond it, the oldest received of the device holding the most goes
    /// (never one of this car's own finds while friends' items are there to drop).
    public static let feedItems = 10_000
    /// Feed items kept of one friend's device (its fair share: one flooding device cannot
    /// push the others out): beyond it, its own oldest received goes.
    public static let feedItemsPerDevice = 1_000
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
    /// A published position expires after this long (seconds) on the broker's clock (MQTT
    /// v5's message expiry), so a new follower never reads a stale retained one.
    public static let fixMaxAge = 24.0 * 3600
    /// How far in the future (seconds) a feed item or a like may be dated against this box's
    /// clock (positions are not judged by the wall clock at all).
    public static let fixMaxAhead = 60.0
    /// Times a GPS can give (1980-01-06 to 2137): anything else is no time at all.
    public static let plausibleTimes: ClosedRange<Double> = 315_964_800 ... 5_326_905_600
    /// Largest accuracy (metres) and speed (m/s) a friend fix may state.
    public static let fixMaxAccuracy = 10_000.0
    public static let fixMaxSpeed = 150.0
}
