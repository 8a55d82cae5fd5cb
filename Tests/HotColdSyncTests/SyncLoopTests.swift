import Foundation
import HotColdConfig
import HotColdStore
import HotColdSync
import HotColdDaemonTesting
import Testing

/// The daemon's periodic sync runs on its own task: a hung server holds only that task (and
/// only until the request's deadline), and cancelling it stops the loop at once.
@Suite(.offCooperativePool, .serialized) struct SyncLoopTests {
    final class Reports: @unchecked Sendable {
        let lock = NSLock()
        var items: [SyncReport] = []
        func add(_ r: SyncReport) { lock.lock(); items.append(r); lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
        var last: SyncReport? { lock.lock(); defer { lock.unlock() }; return items.last }
    }

    /// Timings are loose on purpose: the whole suite shares two cores with other tests.
    @Test func aHungServerHoldsOnlyTheSyncTask() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        try await server.faults([["action": "hang", "count": 1000]])
        let reports = Reports()
        let loop = SyncLoop(syncer: f.syncer(server, timeout: 0.5, maxWait: 0), interval: 0.2) { reports.add($0) }
        let task = Task { await loop.run() }

        // Each sync ends at its request deadline and the loop goes on. (How often another task
        // gets to run meanwhile is not asserted: in a full parallel test run, other suites'
        // blocking subprocess waits starve the two-thread cooperative pool, not this loop.
        // The daemon-level "tracking continues" test belongs with the daemon's sync hook.)
        let started = Date()
        while reports.count < 2 && Date().timeIntervalSince(started) < 20 {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(reports.count >= 2, "each sync ends at its deadline")
        #expect(reports.last?.unreachable?.contains("the server did not finish within 0.5 s") == true)
        task.cancel()
        await task.value

        // Cancelling mid-request stops the loop long before a 30 s deadline.
        let slow = SyncLoop(syncer: f.syncer(server, timeout: 30, maxWait: 0), interval: 3600)
        let hangingBefore = try await server.int("hanging")
        let slowTask = Task { await slow.run() }
        #expect(try await server.wait { ($0["hanging"] as? Int ?? 0) > hangingBefore })
        let stopAt = Date()
        slowTask.cancel()
        await slowTask.value
        #expect(Date().timeIntervalSince(stopAt) < 20)
        try await server.release()
    }

    @Test func nudgeSyncsAtOnce() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let reports = Reports()
        let loop = SyncLoop(syncer: f.syncer(server), interval: 3600) { reports.add($0) }
        let task = Task { await loop.run() }
        defer { task.cancel() }
        try await waitFor { reports.count == 1 }
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 5)
        loop.nudge()
        try await waitFor { reports.count == 2 }
        #expect(reports.last?.delivered.count == 1)
    }

    func waitFor(seconds: Double = 10, _ condition: () -> Bool) async throws {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < end else { Issue.record("timed out"); return }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

@Suite(.offCooperativePool) struct SyncLoopConfigurationTests {
    @Test func noBaseURLMeansNoSyncing() throws {
        let f = try SyncFixture(); defer { f.remove() }
        var api = HotColdConfig.Configuration().api
        #expect(try SyncLoop.fromConfiguration(api, store: f.store) == nil)
        api.baseURL = "https://bigthings.example/api"
        api.token = "s3cret"
        api.syncIntervalSeconds = 600
        let loop = try #require(try SyncLoop.fromConfiguration(api, store: f.store))
        #expect(loop.interval == 600 && loop.syncer.client.token == "s3cret" && loop.syncer.options.honourBackoff)
        #expect(loop.syncer.client.url("bigthings").absoluteString == "https://bigthings.example/api/bigthings")
    }
}
