import HotColdProtocol

/// Which class a friend's bridge reads a like under: `FRIEND_LIKE` (protocol 1.11 and later,
/// which say so in their `…/location`) or only the old `LIKE`. A bridge writes each author the
/// name it reads, so renaming the broker's like loses none between cars on different releases.
public enum LikeDialect: Sendable, Equatable {
    case friendLike
    case legacy

    /// The first protocol version whose bridges read `FRIEND_LIKE`.
    static let since = (major: 1, minor: 11)

    /// What a bridge that announced `major.minor` reads (nil: announced nothing, as OwnTracks
    /// and earlier hotcold bridges do).
    init(major: Int?, minor: Int?) {
        guard let major, let minor else { self = .legacy; return }
        self = (major, minor) >= Self.since ? .friendLike : .legacy
    }
}
