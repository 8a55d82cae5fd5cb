import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `sync` as an ordinary command, against the daemon built in process: every field checked at
/// the socket with its code, ISO-8601 times, the outbox's state machine through typed requests,
/// the catalogue as an ordinary upload, and the write rate charged to the ops that change.
@Suite(.offCooperativePool) struct SyncCommandTests {
    static func object(_ line: String) throws -> [String: Any] { try #require(LineClient.object(line), "\(line)") }

    /// Out-of-range values, unknown ops, a field of another op, epoch-second times, uploads
    /// too large, incomplete or for another purpose: each refused, naming the field.
    @Test func badRequestsAreRefusedByField() async throws {
        let daemon = try InProcessDaemon()
        func error(_ line: String) async throws -> String {
            let o = try Self.object(try await daemon.ask(line))
            #expect(o["class"] as? String == "ERROR" && o["command"] as? String != nil, "\(o)")
            return o["message"] as? String ?? "no error: \(o)"
        }
        #expect(try await error(#"{"cmd":"sync","op":"fly"}"#).hasPrefix("sync: op: "))
        #expect(try await error(#"{"cmd":"sync","op":"begin"}"#) == "sync: id: missing (an outbox item id)")
        #expect(try await error(#"{"cmd":"sync","op":"begin","id":0}"#).hasPrefix("sync: id: "))
        // Too large for an item id: refused by range, never trapped.
        #expect(try await error(#"{"cmd":"sync","op":"begin","id":1e19}"#).hasPrefix("sync: id: "))
        #expect(try await error(#"{"cmd":"sync","op":"delivered","id":1,"status":1000}"#).hasPrefix("sync: status: "))
        #expect(try await error(#"{"cmd":"sync","op":"delivered","id":1,"status":200,"catalogue":{"place_id":"x","rating":7}}"#)
                .hasPrefix("sync catalogue: rating: "))
        // Times are ISO-8601, as everywhere in the protocol; epoch seconds are refused.
        #expect(try await error(#"{"cmd":"sync","op":"retry","id":1,"message":"x","next":1e300}"#).hasPrefix("sync: next: "))
        #expect(try await error(#"{"cmd":"sync","op":"begin","id":1,"at":1700000000}"#).hasPrefix("sync: at: "))
        // A field of another op is not silently ignored.
        #expect(try await error(#"{"cmd":"sync","op":"begin","id":1,"message":"x"}"#).hasPrefix("sync: message: unknown field"))
        let long = String(repeating: "x", count: 3000)
        #expect(try await error(#"{"cmd":"sync","op":"failed","id":1,"message":"\#(long)"}"#).contains("at most 2000 characters"))
        #expect(try await error(#"{"cmd":"sync","op":"payload","id":999999,"offset":0}"#).hasPrefix("sync: id: no outbox item"))
        #expect(try await error(#"{"cmd":"upload","purpose":"catalogue","size":999999999}"#).hasPrefix("upload: size: "))

        // The catalogue's upload: another connection cannot apply it, nor an incomplete one be
        // applied, nor a photo's upload be taken for a catalogue.
        let replies = try await InProcessDaemon.onThread { [daemon] () throws -> [String] in
            let c = try daemon.connect()
            let upload = try c.call(.upload(UploadRequest(purpose: .catalogue, size: 10)), expecting: UploadReply.self)
            _ = try c.call(.chunk(ChunkRequest(upload: upload.id, offset: 0, data: Data("xxx".utf8))), expecting: UploadReply.self)
            let apply = Request.sync(SyncRequest(.catalogue(upload: upload.id, etag: "\"v1\"", source: "test")))
            let elsewhere = try Self.exchange(try daemon.connect(), apply)
            let incomplete = try Self.exchange(c, apply)
            let photo = try c.call(.upload(UploadRequest(purpose: .photo, size: 3)), expecting: UploadReply.self)
            _ = try c.call(.chunk(ChunkRequest(upload: photo.id, offset: 0, data: Data("xxx".utf8))), expecting: UploadReply.self)
            let wrong = try Self.exchange(c, .sync(SyncRequest(.catalogue(upload: photo.id, etag: nil, source: "test"))))
            return [elsewhere, incomplete, wrong]
        }
        #expect(replies[0].contains("no upload"), "\(replies[0])")
        #expect(replies[1].contains("3 of 10 bytes"), "\(replies[1])")
        #expect(replies[2].contains("is for photo, not catalogue"), "\(replies[2])")
        let etag = try Self.object(try await daemon.ask(.sync(SyncRequest(.etag))))
        #expect((etag["result"] as? [String: Any])?["etag"] == nil, "nothing was applied: \(etag)")
        await daemon.stop()
    }

    /// A rating's outbox item through its life in typed requests, as hotcold-sync drives it:
    /// `next` hands it over with its exact body, `begin` counts the attempt, `delivered` records
    /// the server's reply and the rating's new figures, and `pending` is empty after.
    @Test func anOutboxItemIsDeliveredThroughTypedRequests() async throws {
        let daemon = try InProcessDaemon()
        let found = try Self.object(try await daemon.ask(.search(SearchRequest(text: "banana"))))
        let id = try #require(((found["result"] as? [[String: Any]])?.first?["place"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.ask(.store(StoreRequest(.rate(id: id, stars: 4))))
        let nextLine = try await daemon.ask(.sync(SyncRequest(.next(after: 0))))
        let next = try WireCoding.decode(ResultReply<SyncResult.Next>.self, class: "SYNC", from: nextLine).result
        let item = try #require(next.item, "\(nextLine)")
        #expect(item.kind == "rating" && item.state == "pending" && item.placeId == id && next.payloadInline)
        #expect(item.payload.count == next.payloadBytes && String(decoding: item.payload, as: UTF8.self).contains("4"))
        let at = Date(timeIntervalSince1970: 1_795_460_000)
        let begun = try await daemon.ask(.sync(SyncRequest(.begin(id: item.id, at: at))))
        #expect(try WireCoding.decode(ResultReply<SyncResult.Begun>.self, class: "SYNC", from: begun).result.begun)
        let done = try await daemon.ask(.sync(SyncRequest(.delivered(
            id: item.id, status: 201, response: Data(#"{"ok":true}"#.utf8),
            catalogue: .init(placeId: id, rating: 4.5, votes: 12), at: at))))
        #expect(done.hasPrefix(#"{"class":"SYNC","op":"delivered""#), "\(done)")
        let pending = try Self.object(try await daemon.ask(.sync(SyncRequest(.pending))))
        #expect((pending["result"] as? [String: Any])?["count"] as? Int == 0, "\(pending)")
        let after = try await daemon.ask(.sync(SyncRequest(.item(id: item.id))))
        let stored = try #require(try WireCoding.decode(ResultReply<SyncResult.Item>.self, class: "SYNC", from: after).result.item)
        #expect(stored.state == "delivered" && stored.httpStatus == 201 && stored.attempts == 1)
        #expect(stored.payload.isEmpty, "no payload in `item`")
        let rows = try Self.object(try await daemon.ask(.search(SearchRequest(text: "banana"))))["result"] as? [[String: Any]]
        let row = rows?.first { ($0["place"] as? [String: Any])?["id"] as? String == id }
        #expect(row?["catalogue_votes"] as? Int == 12 && row?["catalogue_rating"] as? Double == 4.5,
                "the rating's new figures are stored: \(row ?? [:])")
        await daemon.stop()
    }

    /// The ops that change the database are charged to the write rate like every change;
    /// the reads are not, so a busy writer can still read its outbox.
    @Test func changingOpsAreChargedToTheWriteRate() async throws {
        let daemon = try InProcessDaemon { c in
            c.socket.writeBurst = 2
            // One token a week: however slowly a loaded machine runs this test, none comes back.
            c.socket.writesPerSecond = 1.0 / (7 * 86_400)
        }
        // Back to back on one connection, on a thread of its own.
        let codes = try await InProcessDaemon.onThread { [daemon] () throws -> [String] in
            let c = try daemon.connect()
            return try (0..<3).map { _ in
                let o = LineClient.object(try Self.exchange(c, .sync(SyncRequest(.begin(id: 1, at: nil))))) ?? [:]
                return o["class"] as? String == "ERROR" ? o["code"] as? String ?? "?" : "ok"
            }
        }
        #expect(codes == ["ok", "ok", "busy"], "\(codes)")
        for _ in 0..<5 {
            let o = try Self.object(try await daemon.ask(.sync(SyncRequest(.pending))))
            #expect(o["class"] as? String == "SYNC", "reads are not charged: \(o)")
        }
        await daemon.stop()
    }

    /// Sends one request on `c` and returns the next line (its reply, an ERROR included).
    static func exchange(_ c: LineClient, _ request: Request) throws -> String {
        try c.send(request)
        guard let line = try c.readLine(timeout: 60) else { throw ClientError.closed(path: "", waitingFor: "a reply") }
        return line
    }
}
