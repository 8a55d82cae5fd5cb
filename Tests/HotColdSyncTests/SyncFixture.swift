import Foundation
import HotColdStore
import HotColdSync
import HotColdTestSupport

/// A fresh store in a temporary directory and a syncer with fast, deterministic retries.
struct SyncFixture {
    let dir: TemporaryDirectory
    let store: Store
    var dbPath: String { dir.path("sync.sqlite") }

    init() throws {
        dir = try TemporaryDirectory("hotcold-sync")
        store = try Store.open(path: dir.path("sync.sqlite"))
    }

    /// Backoff of 50 ms doubling to 200 ms with the jitter fixed at one half.
    static let fastRetry = RetryPolicy(base: 0.05, cap: 0.2, jitter: { 0.5 })

    func syncer(_ server: ReferenceServer, timeout: Double = 5, maxWait: Double = 30, token: String? = nil) -> Syncer {
        Syncer(store: store, client: try! APIClient(baseURL: server.url, token: token, timeout: timeout, allowHTTPLoopback: true),
               options: .init(retry: SyncFixture.fastRetry, maxWait: maxWait, honourBackoff: false, user: "tester"))
    }

    func remove() { dir.remove() }
}
