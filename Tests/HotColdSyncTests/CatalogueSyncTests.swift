import Foundation
import HotColdStore
import HotColdSync
import HotColdDaemonTesting
import Testing

/// Against the reference server: the first download, the conditional re-download, withdrawals.
@Suite(.offCooperativePool, .serialized) struct CatalogueSyncTests {
    @Test func firstDownloadThenNotModified() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let syncer = f.syncer(server)

        let first = await syncer.sync()
        guard case .updated(let r, let etag)? = first.catalogue else { Issue.record("\(first.summary)"); return }
        #expect(r.importReport.inserted == 3 && r.withdrawn.isEmpty)
        let stored = try f.store.syncValue(Store.catalogueETagKey)
        #expect(etag != nil && stored == etag)
        #expect(try f.store.place(id: "api:merino")?.bigThing?.votes == 4)

        let second = await syncer.sync()
        guard case .unchanged? = second.catalogue else { Issue.record("\(second.summary)"); return }
        let gets = try await server.state()["catalogue_gets"] as? [String: Int]
        #expect(gets == ["200": 1, "304": 1])
        #expect(second.unreachable == nil)
    }

    @Test func thingsMissingFromTheListAreWithdrawnNotDeleted() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let syncer = f.syncer(server)
        _ = await syncer.sync()
        let full = try await server.catalogue()
        try f.store.markSeen(placeID: "api:prawn", user: "alice")
        try f.store.rate(placeID: "api:prawn", user: "alice", stars: 3, share: false)

        try await server.control("remove", ["ids": ["api:prawn"]])
        let r = await syncer.sync()
        guard case .updated(let applied, _)? = r.catalogue else { Issue.record("\(r.summary)"); return }
        #expect(applied.withdrawn == ["api:prawn"])
        let prawn = try #require(try f.store.place(id: "api:prawn"))
        #expect(prawn.bigThing?.withdrawn == true && prawn.place.active == false)
        let mine = try f.store.userState(placeID: "api:prawn", user: "alice")
        #expect(mine.visits.count == 1 && mine.rating?.stars == 3)
        #expect(r.summary.contains("1 withdrawn"))

        // Listed again: back in the hunt.
        try await server.control("catalogue", full)
        let back = await syncer.sync()
        guard case .updated(let again, _)? = back.catalogue else { Issue.record("\(back.summary)"); return }
        #expect(again.reinstated == ["api:prawn"] && again.withdrawn.isEmpty)
        #expect(try f.store.place(id: "api:prawn")?.place.active == true)
    }

    @Test func aMalformedCatalogueChangesNothing() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        // Every GET this sync makes gets a truncated body; the store stays empty, no ETag is kept.
        try await server.faults([["action": "malformed", "when": "after", "method": "GET", "count": 100]])
        let r = await f.syncer(server, maxWait: 0.3).sync()
        guard case .failed(let m)? = r.catalogue else { Issue.record("\(r.summary)"); return }
        #expect(m.contains("cannot be read"))
        #expect(try f.store.syncValue(Store.catalogueETagKey) == nil)
        #expect(try f.store.place(id: "api:banana") == nil)
    }
}
