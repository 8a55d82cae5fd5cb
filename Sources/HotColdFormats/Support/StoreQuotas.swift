/// How much one user may store through writes that would otherwise grow without bound.
///
/// Each limit is per user (the name the daemon records for a Unix user) and is checked inside
/// the transaction that would cross it, so two writes racing cannot both slip past. A write
/// that would go over throws ``StoreError/quotaReached(quota:limit:user:)`` naming the quota
/// (its key in `[quotas]` of the daemon's configuration) and its limit; nothing is written.
/// Notes are one per user and place and at most ``Note/maxLength`` characters, ratings and
/// favourites one per user and place, so those are bounded by the places themselves.
///
/// ```swift
/// var q = StoreQuotas()
/// q.locationsPerUser = 100
/// let store = try Store.open(path: "/tmp/hc.sqlite", quotas: q)
/// ```
public struct StoreQuotas: Sendable, Equatable {
    /// Custom locations a user has added (`hotcold add`).
    public var locationsPerUser = 10_000
    /// Field observations recorded by a user (`hotcold observe`, observation imports).
    public var observationsPerUser = 100_000
    /// Submissions of a user still waiting in the outbox (each may carry a photo).
    public var pendingSubmissionsPerUser = 1_000
    /// Notes of a user (one per place, at most 500 characters each).
    public var notesPerUser = 10_000
    /// Manual visits of a user (`hotcold seen`; automatic ones are one per arrival episode).
    public var manualVisitsPerUser = 100_000
    /// Places a user's imports added to the shared store (`hotcold import`; an import that
    /// would pass it stores nothing). Places already there, updated by an import, do not count.
    public var importedPlacesPerUser = 200_000

    public init() {}

    /// The quotas' names as the configuration spells them, with their limits.
    public var named: [(name: String, limit: Int)] {
        [("locations_per_user", locationsPerUser), ("observations_per_user", observationsPerUser),
         ("pending_submissions_per_user", pendingSubmissionsPerUser), ("notes_per_user", notesPerUser),
         ("manual_visits_per_user", manualVisitsPerUser), ("imported_places_per_user", importedPlacesPerUser)]
    }
}
