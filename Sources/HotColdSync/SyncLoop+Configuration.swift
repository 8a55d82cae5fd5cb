import Foundation
import HotColdConfig

extension SyncLoop {
    /// The long-running sync loop as `[api]` describes it, or nil when `base_url` is empty (no
    /// syncing). `token` (from systemd credentials, say) overrides `[api] token`.
    ///
    /// The loop honours each item's backoff (a manual `hotcold sync` does not) and lets one
    /// sync wait up to `maxWait` seconds (a minute) for retries; each request, from connecting to
    /// the reply's last byte, has `timeout` seconds.
    ///
    /// ```swift
    /// if let loop = try SyncLoop.fromConfiguration(config.api, store: DaemonOutboxStore(socketPath: path)) {
    ///     await loop.run()      // cancel the task to stop
    /// }
    /// ```
    public static func fromConfiguration(_ api: Configuration.API, store: any OutboxStore, token: String? = nil,
                                         timeout: Double = 30, maxWait: Double = 60,
                                         onReport: @escaping @Sendable (SyncReport) -> Void = { _ in })
        throws(BaseURL.Problem) -> SyncLoop? {
        guard !api.baseURL.isEmpty else { return nil }
        guard let url = URL(string: api.baseURL) else { throw .notAURL(api.baseURL) }
        let client = try APIClient(baseURL: url, token: token ?? api.token, timeout: timeout,
                                   allowHTTPLoopback: api.allowHTTPLoopback)
        let syncer = Syncer(store: store, client: client, options: .init(maxWait: maxWait, honourBackoff: true))
        return SyncLoop(syncer: syncer, interval: api.syncIntervalSeconds, onReport: onReport)
    }
}
