import Foundation
import HotColdConfig
import HotColdStore

extension SyncLoop {
    /// The daemon's sync loop as `[api]` describes it, or nil when `base_url` is empty (no syncing).
    ///
    /// The daemon honours each item's backoff (a manual `hotcold sync` does not) and lets one
    /// sync wait up to a minute for retries; requests time out after `timeout` seconds.
    ///
    /// ```swift
    /// if let loop = SyncLoop.fromConfiguration(config.api, store: store, onReport: { log.info("\($0.summary)") }) {
    ///     let task = Task.detached { await loop.run() }   // off the engine's path; cancel to stop
    /// }
    /// ```
    public static func fromConfiguration(_ api: Configuration.API, store: Store, timeout: Double = 30,
                                         onReport: @escaping @Sendable (SyncReport) -> Void = { _ in }) -> SyncLoop? {
        guard !api.baseURL.isEmpty, let url = URL(string: api.baseURL) else { return nil }
        let client = APIClient(baseURL: url, token: api.token, timeout: timeout)
        let syncer = Syncer(store: store, client: client, options: .init(maxWait: 60, honourBackoff: true))
        return SyncLoop(syncer: syncer, interval: api.syncIntervalSeconds, onReport: onReport)
    }
}
