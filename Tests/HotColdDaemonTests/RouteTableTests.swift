import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The route table answers every command of the protocol: one request of each, sent to the
/// daemon built in process (``InProcessDaemon``), gets its own reply class — never
/// `unknown_command` or `internal` — and every reply line matches `schema/reply.schema.json`. A command added to `Command` without an entry here fails
/// the first test; one without a route does not compile.
@Suite(.offCooperativePool) struct RouteTableTests {
    /// A request of each command and the class its reply has; a few ids come from earlier
    /// replies (the export's download, the upload's chunks), so the order matters.
    @Test func everyCommandIsRoutedToItsHandler() async throws {
        let daemon = try InProcessDaemon()
        let ute = try #require(FriendID(user: "jane", device: "ute"))
        let now = Date()
        let place = FeedItem.Place(id: "bigthings:big-banana", name: "Big Banana", kind: "bigthing")
        let file = Data(#"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="-30.2" lon="153.1"><name>Route Test</name></wpt></gpx>"#.utf8)
        var seen: Set<Command> = []
        var lines: [String] = []
        func expect(_ request: Request, _ cls: String, orError code: ErrorCode? = nil) async throws -> [String: Any] {
            let line = try await daemon.ask(request)
            lines.append(line)
            let o = try #require(LineClient.object(line), "\(line)")
            let got = o["class"] as? String
            let ok = got == cls || (code != nil && got == "ERROR" && o["code"] as? String == code?.rawValue)
            #expect(ok, "\(request.command.rawValue): \(line.prefix(300))")
            seen.insert(request.command)
            return o
        }
        _ = try await expect(.version, "VERSION")
        _ = try await expect(.status, "STATUS")
        _ = try await expect(.poll, "POLL")
        _ = try await expect(.targets(TargetsRequest()), "TARGETS")
        _ = try await expect(.watch(WatchRequest(enable: false)), "WATCH")
        _ = try await expect(.hunt(HuntRequest(targets: ["-30.30,153.10,Somewhere"])), "TRACKING")
        _ = try await expect(.roam(RoamRequest(radius: 20_000)), "TRACKING")
        _ = try await expect(.store(StoreRequest(.add(name: "Route Test Spot", at: Coordinate(latitude: -30.3, longitude: 153.1)))), "STORE")
        let found = try await expect(.search(SearchRequest(text: "banana")), "PLACES")
        let id = try #require(((found["result"] as? [[String: Any]])?.first?["place"] as? [String: Any])?["id"] as? String, "\(found)")
        _ = try await expect(.place(PlaceRequest(id: id)), "PLACE")
        _ = try await expect(.near(NearRequest(at: Coordinate(latitude: -30.3, longitude: 153.1))), "NEAR")
        _ = try await expect(.visits, "VISITS")
        _ = try await expect(.observations, "OBSERVATIONS")
        _ = try await expect(.outbox, "OUTBOX")
        _ = try await expect(.report(ReportRequest(service: "route-test", state: "idle")), "REPORT")
        // Root is a proxy; the in-process daemon's connection is root's.
        _ = try await expect(.actFor(ActForRequest(uid: 0)), "ACTING")
        _ = try await expect(.submit(SubmitRequest(name: "Big Route", at: Coordinate(latitude: -30.3, longitude: 153.1), seenAt: now)), "SUBMIT")
        _ = try await expect(.sync(SyncRequest(.pending)), "SYNC")
        _ = try await expect(.follow(FollowRequest(who: ute)), "RESULT")
        _ = try await expect(.follow(FollowRequest(who: ute, follow: false)), "RESULT")
        _ = try await expect(.following(FollowingRequest()), "FOLLOWING")
        _ = try await expect(.friendFix(FriendFixRequest(who: ute, time: now, lat: -30.3, lon: 153.1, club: true)), "RESULT")
        let item = FeedItem(author: "jane", device: "ute", seq: 7, time: now, kind: "arrived", place: place)
        _ = try await expect(.feedItem(FeedItemRequest(item: item)), "RESULT")
        _ = try await expect(.feed(FeedRequest(world: true)), "FEED")
        let itemID = try #require(FeedItemID(author: "jane", device: "ute", seq: 7))
        _ = try await expect(.like(LikeRequest(item: itemID)), "RESULT")
        _ = try await expect(.like(LikeRequest(item: itemID, like: false)), "RESULT")
        // No own feed item 1 in a new database: answered by its handler, with its own error.
        _ = try await expect(.likeReceived(LikeReceivedRequest(itemSeq: 1, liker: ute, like: true, time: now)), "RESULT", orError: .notFound)
        // Files: upload, chunk and import on one connection (an upload is its connection's).
        let imported = try await InProcessDaemon.onThread { [daemon] () throws -> [String] in
            let c = try daemon.connect()
            let upload = try c.call(.upload(UploadRequest(purpose: .import, size: file.count)), expecting: UploadReply.self)
            try c.send(.chunk(ChunkRequest(upload: upload.id, offset: 0, data: file)))
            let chunked = try c.line(ofClass: "UPLOAD")
            try c.send(.import(ImportRequest(upload: upload.id, name: "route.gpx")))
            let report = try c.line(ofClass: "IMPORT", timeout: 60)
            try c.send(.export(ExportRequest(format: "gpx")))
            let export = try c.reply(ExportReply.self, timeout: 60)
            try c.send(.download(DownloadRequest(id: export.id, offset: 0)))
            let chunk = try c.line(ofClass: "CHUNK")
            try c.send(.sync(SyncRequest(.next(after: 0))))
            return [chunked, report, WireCoding.line(export), chunk, try c.line(ofClass: "SYNC")]
        }
        #expect(imported.count == 5 && imported[1].contains(#""inserted":1"#), "\(imported)")
        #expect(imported[4].contains(#""kind":"submission""#), "the submission above is queued: \(imported[4].prefix(300))")
        lines += imported
        seen.formUnion([.upload, .chunk, .import, .export, .download])
        await daemon.stop()
        // Every reply, of every command, is what the reply schema documents.
        #expect(try JSONSchemaCheck.failures(lines, schema: "reply.schema.json") == "")
        let missing = Set(Command.allCases).subtracting(seen)
        #expect(missing.isEmpty, "commands this test does not send: \(missing.map(\.rawValue).sorted())")
    }
}
