import Foundation
import GRDB
@testable import HotColdStore
import HotColdSync
import HotColdDaemonTesting
import Testing

/// The API token goes to the API's own origin only, over TLS (or plain HTTP to loopback when
/// a test allows it), and nothing the server or the stored outbox sends can stretch that.
@Suite(.offCooperativePool, .serialized) struct TokenSafetyTests {
    @Test func plainHTTPOnlyToLoopbackAndOnlyWhenAllowed() throws {
        func check(_ s: String, _ allow: Bool) -> BaseURL.Problem? {
            do { _ = try BaseURL.check(URL(string: s)!, allowHTTPLoopback: allow); return nil } catch { return error }
        }
        #expect(check("https://bigthings.example/api", false) == nil)
        #expect(try BaseURL.check(URL(string: "https://bigthings.example/api")!).absoluteString == "https://bigthings.example/api/")
        #expect(check("http://127.0.0.1:8080", false) == .plainHTTP("http://127.0.0.1:8080"))
        #expect(check("http://127.0.0.1:8080", true) == nil)
        #expect(check("http://127.9.8.7/", true) == nil)
        #expect(check("http://localhost:1/", true) == nil)
        #expect(check("http://[::1]:8080/", true) == nil)
        #expect(check("http://bigthings.example/api", true) == .plainHTTPNotLoopback("http://bigthings.example/api"))
        #expect(check("http://127.0.0.1.evil.example/", true) == .plainHTTPNotLoopback("http://127.0.0.1.evil.example/"))
        #expect(check("https://user:pw@bigthings.example/", false) == .hasQueryOrCredentials("https://user:pw@bigthings.example/"))
        #expect(check("ftp://bigthings.example/", true) == .notAURL("ftp://bigthings.example/"))
        #expect(check("bigthings.example", true) == .notAURL("bigthings.example"))
        #expect(throws: BaseURL.Problem.self) { try APIClient(baseURL: URL(string: "http://10.0.0.1/")!, allowHTTPLoopback: true) }
    }

    @Test func requestPathsStayUnderTheBaseURL() throws {
        let client = try APIClient(baseURL: URL(string: "https://bigthings.example/api")!)
        #expect(try client.resolve("bigthings/api:banana/ratings").absoluteString
                == "https://bigthings.example/api/bigthings/api:banana/ratings")
        #expect(try client.resolve("bigthings/a%2Fb/ratings").absoluteString == "https://bigthings.example/api/bigthings/a%2Fb/ratings")
        for bad in ["../admin", "bigthings/../../admin", "bigthings/%2e%2E/x", "bigthings/./x", "/api/bigthings",
                    "https://evil.example/steal", "https:evil.example/steal", "//evil.example/steal",
                    "bigthings?x=1", "bigthings#f", "big things", "bigthings\\..\\x", "bigthings//x", ""] {
            #expect(throws: TransportError.self, "\(bad)") { try client.resolve(bad) }
        }
    }

    /// A redirect to another host is not followed (so the bearer token never reaches it); a
    /// redirect within the API's origin is, and carries the token.
    @Test func crossHostRedirectsAreRefusedSameOriginOnesFollowed() async throws {
        let server = try ReferenceServer(token: "s3cret"); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        let elsewhere = "http://localhost:\(server.port)/bigthings"     // same process, another host name
        try await server.faults([["action": "redirect", "location": elsewhere, "method": "GET", "count": 100]])
        let r = await f.syncer(server, maxWait: 0.3, token: "s3cret").sync()
        guard case .failed(let m)? = r.catalogue else { Issue.record("\(r.summary)"); return }
        #expect(m.contains("refused a redirect to \(elsewhere)"), "\(m)")
        let requests = try await server.state()["requests"] as? [[Any]] ?? []
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { ($0[4] as? String) == "127.0.0.1:\(server.port)" }, "nothing went to localhost: \(requests)")
        #expect(try f.store.place(id: "api:banana") == nil)

        // Within the origin: followed, with the token.
        try await server.clearFaults()
        try await server.faults([["action": "redirect", "location": "http://127.0.0.1:\(server.port)/bigthings", "method": "GET"]])
        let ok = await f.syncer(server, token: "s3cret").sync()
        guard case .updated? = ok.catalogue else { Issue.record("\(ok.summary)"); return }
        let after = try await server.state()["requests"] as? [[Any]] ?? []
        #expect(after.suffix(2).allSatisfy { ($0[5] as? Bool) == true }, "\(after.suffix(2))")
    }

    /// Redirects within the origin are followed five times at most: a loop ends with a reason.
    @Test func aRedirectLoopWithinTheOriginEnds() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let client = try APIClient(baseURL: server.url, timeout: 10, allowHTTPLoopback: true)
        try await server.faults([["action": "redirect", "location": "http://127.0.0.1:\(server.port)/bigthings", "method": "GET", "count": 100]])
        do {
            let r = try await client.send(APIRequest(method: "GET", path: "bigthings"))
            Issue.record("a reply after a redirect loop: HTTP \(r.status)")
        } catch {
            #expect(error.reason == "the server redirected more than 5 times", "\(error)")
        }
        let requests = try await server.state()["requests"] as? [[Any]] ?? []
        #expect(requests.count == 6, "the request and five redirects: \(requests)")
        await client.shutdown()
    }

    /// Stored data cannot aim a request (and the token) outside the API: the item fails with a
    /// reason and nothing is sent.
    @Test func anOutboxPathThatLeavesTheBaseFailsUnsent() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        try await f.store.database.write { db in
            let item = OutboxItem(kind: .rating, path: "bigthings/../../admin/ratings", payload: Data("{}".utf8), user: "mallory")
            try item.insert(db)
        }
        let r = await f.syncer(server).drainOutbox()
        #expect(r.failed.count == 1 && r.pending == 0, "\(r.summary)")
        #expect(r.failed.first?.lastError?.contains("is unsafe: it has a .. segment") == true, "\(r.failed.first?.lastError ?? "")")
        let posts = (try await server.state()["requests"] as? [[Any]] ?? []).filter { ($0[0] as? String) == "POST" }
        #expect(posts.isEmpty)
    }

    /// Bodies over the cap are refused while they arrive: a catalogue above 16 MiB (declared
    /// length), a receipt above 1 MiB sent chunked with no length at all.
    @Test func oversizedBodiesAreRefused() async throws {
        let server = try ReferenceServer(); defer { server.stop() }
        let f = try SyncFixture(); defer { f.remove() }
        try await server.faults([["action": "oversized", "size": APIRequest.catalogueLimit + 1, "method": "GET", "count": 100]])
        let r = await f.syncer(server, maxWait: 0.2).sync()
        guard case .failed(let m)? = r.catalogue else { Issue.record("\(r.summary)"); return }
        #expect(m.contains("the server announced Content-Length 16777217, over the cap of 16 MiB"), "\(m)")
        #expect(try f.store.catalogueETag() == nil)
        try await server.clearFaults()

        _ = await f.syncer(server).sync()
        try f.store.rate(placeID: "api:banana", user: "alice", stars: 5)
        try await server.faults([["action": "oversized", "size": 3 << 20, "chunked": true, "when": "after", "path": "ratings"]])
        let d = await f.syncer(server, maxWait: 0).drainOutbox()
        #expect(d.pending == 1 && d.delivered.isEmpty, "\(d.summary)")
        let item = try #require(try f.store.outbox().first)
        #expect(item.lastError?.contains("the server sent more than 1 MiB") == true, "\(item.lastError ?? "")")
        // The resend (same key) gets the real receipt; counted once.
        let again = await f.syncer(server).drainOutbox()
        #expect(again.delivered.count == 1)
        #expect(try await server.int("ratings_counted") == 1)
    }
}
