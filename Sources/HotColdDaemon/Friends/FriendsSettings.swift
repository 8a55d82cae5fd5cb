import HotColdCore
import HotColdProtocol

/// `[friends]` of the daemon's configuration, as the engine's host takes it: how long a
/// silent friend stays current, and on the radar.
struct FriendsSettings: Sendable, Equatable {
    /// Seconds of silence before a friend's trend is `unknown` and it shows `stale`.
    var staleAfter: Double
    /// Seconds of silence before a friend leaves the radar.
    var forgetAfter: Double

    init(staleAfter: Double = 300, forgetAfter: Double = 3600) {
        self.staleAfter = staleAfter
        self.forgetAfter = forgetAfter
    }

    init(_ c: FriendRadar.Config) { self.init(staleAfter: c.staleAfter, forgetAfter: c.forgetAfter) }

    func radarConfig(_ engine: EngineConfig) -> FriendRadar.Config {
        FriendRadar.Config(engine: engine, staleAfter: staleAfter, forgetAfter: forgetAfter, maxFriends: FriendLimits.radarFriends)
    }
}
