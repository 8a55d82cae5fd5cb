import Foundation
import HotColdStore
import HotColdSync
import HotColdDaemonTesting
import Testing

/// The outbox against the reference server: exactly once under injected failures, final refusals.
@Suite(.offCooperativePool, .serialized) struct DeliveryTests {
    @Test func deliveredOnceUnderInjectedFailures() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        _ = await f.syncer(server).sync()     // the catalogue first

        try f.store.rate(placeID: "api:banana", user: "alice", stars: 5)
        try f.store.rate(placeID: "api:merino", user: "alice", stars: 1)
        try f.store.submit(try Submission(user: "alice", name: "Big Wombat", latitude: -35.3, longitude: 149.1, seenAt: Date()))
        try await server.faults([
            ["action": "status", "status": 500, "count": 2, "method": "POST"],
            ["action": "status", "status": 429, "retry_after": "1", "method": "POST"],
            ["action": "status", "status": 503, "method": "POST"],
            ["action": "drop", "when": "after", "path": "ratings"],        // counted, reply lost
            ["action": "malformed", "when": "after", "path": "ratings"],   // counted, reply garbled
            ["action": "drop", "when": "before", "path": "submissions"],
            ["action": "hang", "when": "after", "path": "submissions"],    // counted, then no reply: timeout
        ])
        let started = Date()
        let r = await f.syncer(server, timeout: 1).sync()
        #expect(r.delivered.count == 3 && r.failed.isEmpty && r.pending == 0, "\(r.summary)")
        #expect(r.unreachable == nil)
        #expect(Date().timeIntervalSince(started) >= 1, "Retry-After: 1 was honoured")

        // The server's own counts: each key once, though it saw more requests.
        let s = try await server.state()
        #expect(s["ratings_counted"] as? Int == 2)
        #expect(s["submissions_counted"] as? Int == 1)
        #expect((s["rating_posts"] as? Int ?? 0) > 2 && (s["submission_posts"] as? Int ?? 0) > 1)
        #expect(s["faults_left"] as? Int == 0)
        let keys = Set(try f.store.outbox().map(\.idempotencyKey))
        #expect(Set(s["rating_keys"] as? [String] ?? []).isSubset(of: keys))

        // The catalogue's new rating and votes came from the reply.
        let votes = s["votes"] as? [String: [String: Any]]
        let merino = try #require(try f.store.place(id: "api:merino")?.bigThing)
        #expect(merino.votes == votes?["api:merino"]?["votes"] as? Int && merino.votes == 5)
        #expect(merino.rating == (votes?["api:merino"]?["rating"] as? NSNumber)?.doubleValue)
        #expect(try f.store.outbox(states: [.delivered]).allSatisfy { $0.response != nil && $0.httpStatus != nil })

        // A second sync sends nothing.
        let again = await f.syncer(server).sync()
        #expect(again.delivered.isEmpty)
        let counted = try await server.int("ratings_counted")
        #expect(counted == 2)
        try await server.release()
    }

    /// The reply's numbers cross the network: out of range or of the wrong type, they are
    /// dropped with a note, and the rating still counts as delivered (the server took it; a
    /// resend would only fetch the same numbers). Before, votes 1e300 became Int.min, which
    /// the daemon refused, so a daemon-backed outbox retried the item at every sync.
    @Test func aRatingReplyWithNumbersOutOfRangeIsDeliveredWithoutThem() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        _ = await f.syncer(server).sync()     // the catalogue first
        let before = try #require(try f.store.place(id: "api:banana")?.bigThing)

        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4)
        try f.store.rate(placeID: "api:merino", user: "alice", stars: 2)
        try await server.faults([
            ["action": "body", "when": "after", "path": "banana", "body": ["id": "api:banana", "rating": 1e300, "votes": true]],
            ["action": "body", "when": "after", "path": "merino", "body": ["id": "api:merino", "rating": 4.5, "votes": 2.5]],
        ])
        let r = await f.syncer(server).sync()
        #expect(r.delivered.count == 2 && r.failed.isEmpty && r.pending == 0, "\(r.summary)")
        #expect(r.notes.count == 2, "\(r.notes)")
        #expect(r.notes.contains { $0.contains("api:banana") && $0.contains("rating 1e+300 is not a number from 0 to 5") && $0.contains("votes") })
        #expect(r.notes.contains { $0.contains("api:merino") && $0.contains("votes 2.5 is not a whole number") && !$0.contains("rating 4.5") }, "\(r.notes)")
        #expect(r.summary.contains("note: #"))

        // Nothing out of range reached the catalogue; the one good number did.
        let banana = try #require(try f.store.place(id: "api:banana")?.bigThing)
        #expect(banana.rating == before.rating && banana.votes == before.votes)
        let merino = try #require(try f.store.place(id: "api:merino")?.bigThing)
        #expect(merino.rating == 4.5)
        // Each counted once, and a second sync sends nothing.
        #expect(try await server.int("ratings_counted") == 2)
        let again = await f.syncer(server).sync()
        #expect(again.delivered.isEmpty && again.pending == 0)
    }

    @Test func finalRefusalsAreKeptWithTheServersMessage() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let syncer = f.syncer(server)
        _ = await syncer.sync()
        try await server.control("remove", ["ids": ["api:prawn"]])
        try f.store.rate(placeID: "api:prawn", user: "alice", stars: 2)    // the server no longer knows it
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 4)
        try f.store.rate(placeID: "api:merino", user: "alice", stars: 4)
        try await server.faults([["action": "status", "status": 409, "error": "duplicate rating from alice",
                                  "path": "api:banana"]])

        let r = await syncer.drainOutbox()
        #expect(r.failed.count == 2 && r.delivered.count == 1 && r.pending == 0, "\(r.summary)")
        let failed = try f.store.outbox(states: [.failed])
        #expect(failed.map(\.httpStatus) == [404, 409])
        #expect(failed.map(\.lastError) == ["no Big Thing has the id api:prawn", "duplicate rating from alice"])
        #expect(r.summary.contains("no Big Thing has the id api:prawn"))
        // Failed is final: the next sync leaves them alone.
        _ = await syncer.drainOutbox()
        #expect(try f.store.outbox(states: [.failed]).count == 2)
        let counted = try await server.int("ratings_counted")
        #expect(counted == 1)
    }

    @Test func retriesLeftForTheNextSyncKeepTheirKey() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        _ = await f.syncer(server).sync()
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 3)
        let key = try #require(try f.store.outbox().first?.idempotencyKey)
        try await server.faults([["action": "status", "status": 429, "retry_after": "30", "method": "POST"]])
        let r = await f.syncer(server, maxWait: 1).drainOutbox()
        #expect(r.pending == 1 && r.delivered.isEmpty)
        let item = try #require(try f.store.outbox().first)
        #expect(item.attempts == 1 && item.httpStatus == 429 && item.lastError?.contains("429") == true)
        #expect(item.notBefore.map { $0.timeIntervalSinceNow > 20 } == true, "Retry-After kept")
        // Even a manual sync waits for the server's Retry-After: it sends nothing.
        let before = (try await server.state()["requests"] as? [Any])?.count
        let early = await f.syncer(server, maxWait: 1).drainOutbox()
        let after = (try await server.state()["requests"] as? [Any])?.count
        #expect(early.pending == 1 && before == after && before != nil)
        // Once due (simulated by clearing the time), the same key goes and counts once.
        try f.store.scheduleOutboxRetry(id: item.id!, error: "x", status: nil, next: Date(), notBefore: nil)
        let later = await f.syncer(server).drainOutbox()
        #expect(later.delivered.map(\.idempotencyKey) == [key])
    }

    @Test func bearerTokenIsSentAndAWrongOneIsNamed() async throws {
        let server = try ReferenceServer(token: "s3cret"); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let refused = await f.syncer(server, token: "wrong").sync()
        #expect(refused.unreachable?.contains("refused our credentials (HTTP 401)") == true)
        let ok = await f.syncer(server, token: "s3cret").sync()
        #expect(ok.unreachable == nil)
        guard case .updated? = ok.catalogue else { Issue.record("\(ok.summary)"); return }
    }

    @Test func aHungServerTimesOut() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        try await server.faults([["action": "hang", "count": 10]])
        let started = Date()
        let r = await f.syncer(server, timeout: 0.5, maxWait: 0).sync()
        let took = Date().timeIntervalSince(started)
        #expect(took < 10, "took \(took) s")
        #expect(r.unreachable?.contains("Cannot reach the Big Things API at \(server.url.absoluteString)/bigthings: the server did not finish within 0.5 s") == true,
                "\(r.unreachable ?? "nil")")
        try await server.release()
    }
}
