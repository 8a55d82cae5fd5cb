import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import Testing

/// Replies carry the protocol's payloads, not the store's rows, yet say what the rows said:
/// each reply's `result` is its row's encoding without the fields kept from clients (a
/// visit's photo file on the daemon's disk, a place's folded search text). A field added to a
/// row, or lost from a payload, fails here before it changes the wire.
@Suite struct ReplyPayloadTests {
    /// Nothing beyond the database: these requests name no file and no receiver.
    struct DatabaseOnly: StoreRequestContext {
        var lastFix: Coordinate? { nil }
        func friendsOnRadar() -> [FriendRadar.FriendState] { [] }
        func takeUpload(_ id: String, purpose: UploadRequest.Purpose, command: String) throws -> Data {
            throw ProtocolError(.notFound, command: command, "no uploads here")
        }
        func stageDownload(_ produce: ((Data) throws -> Void) throws -> Void) throws -> (id: String, size: Int) {
            throw ProtocolError(.internal, command: "export", "no downloads here")
        }
    }

    static let keptFromClients: Set<String> = ["photo_path", "search_text"]

    /// `value` as the wire encodes it, parsed, with `keptFromClients` removed at every depth.
    static func wire(_ value: some Encodable) throws -> Any {
        stripped(try JSONSerialization.jsonObject(with: WireCoding.encoder().encode(value), options: .fragmentsAllowed))
    }

    static func stripped(_ json: Any) -> Any {
        if let object = json as? [String: Any] {
            return object.filter { !keptFromClients.contains($0.key) }.mapValues(stripped)
        }
        if let array = json as? [Any] { return array.map(stripped) }
        return json
    }

    /// The same JSON, compared as sorted text.
    static func text(_ json: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    @Test func eachReplyIsItsRowWithoutThePrivateFields() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("geocaches/cachebox3-GC2T9RW.gpx"), user: f.user)
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        let executor = StoreExecutor(store: f.store)
        func result(_ request: Request) throws -> (line: String, result: String) {
            let line = try executor.reply(to: request, user: f.user, seesEveryone: false, context: DatabaseOnly())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (line, try Self.text(try #require(object["result"])))
        }
        // A visit with a photo on the daemon's disk: in the store, never in a reply.
        _ = try f.store.markSeen(placeID: "GC2T9RW", user: f.user, photoPath: "/var/lib/hotcold/photos/1.jpg")
        let rated = try result(.store(StoreRequest(.rate(id: "GC2T9RW", stars: 4))))
        #expect(rated.result == (try Self.text(try Self.wire(try #require(f.store.userState(placeID: "GC2T9RW", user: f.user).rating)))))
        let noted = try result(.store(StoreRequest(.note(id: "GC2T9RW", text: "behind the post"))))
        #expect(noted.result == (try Self.text(try Self.wire(try #require(f.store.userState(placeID: "GC2T9RW", user: f.user).note)))))

        let place = try result(.place(PlaceRequest(id: "GC2T9RW")))
        let detail = try #require(try f.store.place(id: "GC2T9RW"))
        #expect(!detail.waypoints.isEmpty && detail.geocache != nil, "the fixture shows a cache's details and waypoints")
        let mine = try f.store.userState(placeID: "GC2T9RW", user: f.user)
        #expect(mine.visits.first?.photoPath != nil)
        #expect(place.result == (try Self.text(["detail": try Self.wire(detail), "mine": try Self.wire(mine)])))
        for hidden in Self.keptFromClients { #expect(!place.line.contains(hidden), "\(hidden) in \(place.line)") }

        let visits = try result(.visits)
        #expect(visits.result == (try Self.text(try Self.wire(try f.store.visits(user: f.user)))))
        let found = try result(.search(SearchRequest(text: "banana")))
        let rows = try f.store.search(SearchRequest(text: "banana"), user: f.user).rows
        #expect(!rows.isEmpty && rows.contains { $0.state != nil })
        #expect(found.result == (try Self.text(try Self.wire(rows))))
        let big = try result(.place(PlaceRequest(id: rows[0].place.id)))
        #expect(big.result.contains("\"big_thing\""))
        #expect(big.result == (try Self.text(["detail": try Self.wire(try #require(try f.store.place(id: rows[0].place.id))),
                                              "mine": try Self.wire(try f.store.userState(placeID: rows[0].place.id, user: f.user))])))

        let added = try result(.store(StoreRequest(.add(name: "Xyzzy camp", at: Coordinate(latitude: -30.3, longitude: 153.1)))))
        let id = try #require(try f.store.search(SearchRequest(text: "Xyzzy"), user: f.user).rows.first?.place)
        #expect(added.result == (try Self.text(try Self.wire(id))))
        let location = try result(.place(PlaceRequest(id: id.id)))
        #expect(location.result.contains("\"origin\":\"custom\""))

        _ = try result(.store(StoreRequest(.observe(.init(classification: "bird", title: "Cockatoo", date: Date(timeIntervalSince1970: 1_700_000_000))))))
        let observed = try result(.observations)
        #expect(observed.result == (try Self.text(try Self.wire(try f.store.observations(user: f.user)))))
    }

    /// `sync pending` and `sync catalogue` (the daemon's ``OutboxSyncRPC``) reply with the
    /// protocol's payloads: each reply line is, byte for byte, the line the store's own record
    /// made when it was sent as it was, lists, totals, times and `details` included.
    @Test func syncRepliesAreTheirRecordsByteForByte() throws {
        let f = try StoreFixture(); defer { f.remove() }
        func line(_ op: String, _ result: some Codable & Sendable) -> String {
            WireCoding.line(ResultReply(.sync, op: op, result: result))
        }
        func list(_ ids: [String]) -> Data {
            let things = ids.map { id in
                #"{"id": "\#(id)", "name": "Big \#(id)", "town": "Town", "state": "NSW", "lat": \#(id == "api:bad" ? 999 : -30.1), "lon": 153.1}"#
            }
            return Data(#"{"updated": "2024-01-01T00:00:00Z", "things": [\#(things.joined(separator: ","))]}"#.utf8)
        }
        func same(_ report: CatalogueSyncReport) {
            #expect(line("catalogue", report.payload) == line("catalogue", report))
            var summary = report.summarised(maxRows: 1)
            summary.details = "d1"
            #expect(line("catalogue", summary.payload) == line("catalogue", summary))
        }
        let all = ["api:one", "api:two", "api:three", "api:bad"]
        let first = try f.store.applyCatalogue(list(all), etag: "\"v1\"", source: "https://api.invalid/bigthings", user: f.user)
        #expect(first.importReport.inserted == 3 && first.importReport.skipped.count == 1)
        same(first)
        let cut = try f.store.applyCatalogue(list(["api:one"]), etag: nil, source: "test", user: f.user)
        #expect(cut.withdrawn.count == 2)
        let summary = line("catalogue", { var s = cut.summarised(maxRows: 1); s.details = "d1"; return s.payload }())
        #expect(summary.contains(#""withdrawn_total":2"#) && summary.contains(#""import_report":{"#), "\(summary)")
        same(cut)
        let back = try f.store.applyCatalogue(list(all), etag: nil, source: "test", user: f.user)
        #expect(back.reinstated.count == 2)
        same(back)

        #expect(line("pending", try f.store.outboxPendingSummary().payload) == line("pending", try f.store.outboxPendingSummary()))
        _ = try f.store.rate(placeID: "api:two", user: f.user, stars: 4)
        let item = try #require(try f.store.nextPendingOutboxItem())
        try f.store.scheduleOutboxRetry(id: try #require(item.id), error: "HTTP 503", status: 503,
                                        next: Date(timeIntervalSince1970: 1_795_460_000.25),
                                        notBefore: Date(timeIntervalSince1970: 1_795_460_060))
        let pending = try f.store.outboxPendingSummary()
        #expect(pending.count == 1 && pending.notBefore != nil)
        #expect(line("pending", pending.payload) == line("pending", pending))
        #expect(line("pending", pending.payload).contains(#""next_attempt_at":"2026-11-23T"#), "\(line("pending", pending.payload))")
    }
}
