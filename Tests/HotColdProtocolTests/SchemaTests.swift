import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// What the protocol types encode validates against `schema/` (checked by Python's
/// jsonschema, not by us), and the schema is strict enough to catch a wrong line.
@Suite(.offCooperativePool) struct SchemaTests {
    static let when = ISO8601.parse("2024-11-23T07:25:04.000Z")!
    static let banana = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)
    static let slurpee = TargetRef(id: "halans:ef1837ed0c", name: "The Big Slurpee", kind: .bigThing)

    static let replies: [String] = [
        ProtocolVersion.greeting,
        WireCoding.line(WatchReply(enable: true)),
        WireCoding.line(WatchReply(enable: true, classes: ["ARRIVED"], targets: ["GC2T9RW"], since: 10, sinceGap: 12)),
        WireCoding.line(WatchReply(enable: false)),
        WireCoding.line(PollReply(count: 0)),
        WireCoding.line(PollReply(count: 3)),
        WireCoding.line(TrackingReply(mode: "hunt", targets: 2)),
        WireCoding.line(TrackingReply(mode: "roam", radiusM: 20_000, targets: 476)),
        WireCoding.line(TrackingReply(mode: "hunt", targets: 1, gone: [.init(id: "halans:ef1837ed0c", name: "The Big Slurpee", gone: "demolished")])),
        WireCoding.line(status(full: true)),
        WireCoding.line(ReportReply(service: "hotcold-mqtt")),
        WireCoding.line(status(full: false)),
        WireCoding.line(ErrorReply(ProtocolError(.outOfRange, command: "roam", field: "radius", "must be more than 0"))),
        WireCoding.line(ErrorReply(ProtocolError(.badJSON, command: nil, "not JSON"))),
        WireCoding.line(ErrorReply(ProtocolError(.notAllowed, command: "store", "not allowed for uid 65534"))),
        WireCoding.line(UploadReply(id: "u1", size: 100, received: 0)),
        WireCoding.line(UploadReply(id: "u1", size: 100, received: 100)),
        WireCoding.line(ExportReply(id: "d1", format: "gpx", size: 1234)),
        WireCoding.line(ChunkReply(id: "d1", offset: 0, data: Data("<gpx/>".utf8), eof: true)),
        WireCoding.line(ChunkReply(id: "d1", offset: 32768, data: Data([0, 1, 2]), eof: false)),
        WireCoding.line(ResultReply(.near, result: [NearbyPlace(target: banana, lat: -30.27, lon: 153.13, distanceM: 12.5, bearingDeg: 270)])),
        WireCoding.line(ResultReply(.near, result: [NearbyPlace]())),
        WireCoding.line(ResultReply(.near, result: [NearbyPlace(target: slurpee, lat: -30.30, lon: 153.12, distanceM: 3, bearingDeg: 90, gone: "demolished")])),
        WireCoding.line(ResultReply(.outbox, result: [OutboxEntry(id: 1, kind: "rating", state: "pending", idempotencyKey: "k",
                                                                  placeId: "GC1", attempts: 0, createdAt: when, nextAttemptAt: when,
                                                                  request: "{\"stars\":4}")])),
        WireCoding.line(ResultReply(.store, op: "unseen", result: 2)),
        WireCoding.line(ResultReply(.store, op: "fav", result: true)),
        WireCoding.line(ResultReply(.store, op: "note", result: String?.none)),
        WireCoding.line(ResultReply(.places, result: [PlaceSummaryPayload(place: bananaPlace, state: "NSW", town: "Coffs Harbour",
                                                                          catalogueRating: 4.1, catalogueVotes: 11, myRating: nil,
                                                                          favourite: false, seen: true, distance: nil)], more: false)),
        WireCoding.line(ResultReply(.visits, result: [VisitRecordPayload(visit: visit, place: bananaPlace)])),
        WireCoding.line(ResultReply(.store, op: "seen", result: visit)),
        WireCoding.line(TargetsReply(offset: 50, total: 51, targets: [
            .init(target: banana, distanceM: 280.4123, bearingDeg: 172.34, tier: 6, tierName: "hot", trend: "hotter", arrived: false)])),
        WireCoding.line(TargetsReply(offset: 0, total: 0, targets: [])),
        WireCoding.line(TargetsReply(offset: 0, total: 1, targets: [
            .init(target: slurpee, distanceM: 3, bearingDeg: 90, tier: 7, tierName: "burning", trend: "steady", arrived: true, gone: "demolished")])),
    ]

    static let bananaPlace = PlacePayload(id: banana.id, kind: .bigThing, name: banana.name, latitude: -30.27, longitude: 153.13, active: true)
    static let visit = VisitPayload(id: 3, placeId: banana.id, user: "alice", visitedAt: when, method: "manual", episode: nil, departedAt: nil)

    static func status(full: Bool) -> StatusReply {
        StatusReply(
            time: when, uptimeS: 12.6,
            gps: .init(link: full ? "connected" : "lost", reason: full ? nil : "gpsd closed the connection", state: full ? "fix" : "unknown",
                       lastFix: full ? .init(time: when, lat: -30.27481234567, lon: 153.1338, mode: 3, accuracyM: 4.55, speedMps: .nan) : nil),
            tracking: .init(mode: full ? "roam" : "hunt", radiusM: full ? 10_000 : nil, filter: full ? "bigthing" : nil, candidates: 480, tracked: full ? 1 : 0),
            targets: full ? [.init(target: banana, distanceM: 280.4123, bearingDeg: 172.34, tier: 6, tierName: "hot", trend: "hotter", arrived: false)] : [],
            counters: .init(fixes: 10, fixesAccepted: 9, fixesUntimed: 1, outliers: 0, outOfOrder: 0, events: 4, visitErrors: 0),
            latencyUs: .init(samples: 9, p50: 120.04, p99: .infinity, max: 300),
            socket: full ? .init(path: "/run/hotcold/hotcold.sock", clients: 1, clientsTotal: 3, dropped: 0, linesIn: 5, linesOut: 9) : nil,
            log: full ? .init(path: "/var/log/hotcold/events.jsonl", writing: false, error: "disk full", linesWritten: 3, linesLost: 1) : nil,
            config: full ? "/etc/hotcold/hotcold.toml" : nil, database: full ? "/var/lib/hotcold/hotcold.sqlite" : nil,
            services: full ? [.init(service: "hotcold-mqtt", state: "connected", ackedSeq: 1234, pending: 0,
                                    detail: "broker 127.0.0.1:1883, layout hotcold", reportedAt: when, connected: true),
                              .init(service: "hotcold-sync", state: "idle", reportedAt: when, connected: false)] : nil,
            targetsMore: full ? 109_950 : nil,
            databaseError: full ? "the database file /var/lib/hotcold/hotcold.sqlite was deleted while the daemon has it open" : nil)
    }

    static func invalid(_ lines: [String], schema: String) throws -> String {
        try JSONSchemaCheck.failures(lines, schema: schema)
    }

    @Test func requestsMatchTheirSchema() throws {
        #expect(try Self.invalid(RequestExamples.all.map(\.line), schema: "request.schema.json") == "")
        // The schema is not a rubber stamp: lines the decoder refuses, it refuses too.
        let bad = [#"{"cmd":"roam","radius":1e19}"#, #"{"cmd":"store","op":"rate","id":"x","stars":4.5}"#,
                   #"{"cmd":"status","verbose":true}"#, #"{"cmd":"fly"}"#,
                   #"{"cmd":"report","service":"Hotcold MQTT","state":"connected"}"#,
                   #"{"cmd":"report","service":"hotcold-mqtt","state":"happy"}"#, #"{"cmd":"upload","purpose":"photo","size":10485761}"#,
                   #"{"cmd":"targets","limit":1001}"#, #"{"cmd":"targets","offset":-1}"#,
                   #"{"cmd":"store","op":"amend","id":"obs:1"}"#, #"{"cmd":"store","op":"amend","id":"obs:1","title":""}"#,
                   #"{"cmd":"store","op":"amend","id":"obs:1","classification":"dragon"}"#,
                   #"{"cmd":"store","op":"unobserve","id":"obs:1","title":"x"}"#]
        for line in bad {
            #expect(try Self.invalid([line], schema: "request.schema.json") != "", "\(line)")
            #expect((try? Request.decode(line: line).get()) == nil, "\(line)")
        }
    }

    @Test func repliesMatchTheirSchema() throws {
        #expect(try Self.invalid(Self.replies, schema: "reply.schema.json") == "")
        #expect(try Self.invalid([#"{"class":"STATUS","time":"now"}"#], schema: "reply.schema.json") != "")
        #expect(try Self.invalid([#"{"class":"ERROR","message":"no code"}"#], schema: "reply.schema.json") != "")
        // The database's search column and the daemon's photo files are not the protocol's.
        #expect(try Self.invalid([#"{"class":"PLACES","result":[{"place":{"id":"x","kind":"bigthing","name":"X","latitude":1,"longitude":2,"active":true,"search_text":"x"},"favourite":false,"seen":false}]}"#],
                                 schema: "reply.schema.json") != "")
        #expect(try Self.invalid([#"{"class":"VISITS","result":[{"visit":{"place_id":"x","user":"u","visited_at":"2024-11-23T07:25:04.000Z","method":"manual","photo_path":"/var/lib/p.jpg"},"place":{"id":"x","kind":"bigthing","name":"X","latitude":1,"longitude":2,"active":true}}]}"#],
                                 schema: "reply.schema.json") != "")
    }

    @Test func repliesRoundTrip() throws {
        let s = Self.status(full: true)
        let back = try WireCoding.decode(StatusReply.self, from: WireCoding.line(s))
        #expect(back == s)
        #expect(back.gps.lastFix?.lat == -30.2748123 && back.gps.lastFix?.speedMps == nil && back.latencyUs.p99 == 0)
        #expect(WireCoding.line(s).hasPrefix(#"{"class":"STATUS","#))
        let e = ErrorReply(ProtocolError(.tooLarge, command: "hunt", field: "targets", "at most 1000 items"))
        #expect(try WireCoding.decode(ErrorReply.self, from: WireCoding.line(e)) == e)
        #expect(throws: ProtocolError.self) { try WireCoding.decode(StatusReply.self, from: WireCoding.line(e)) }
        let c = ChunkReply(id: "d1", offset: 5, data: Data([0, 255, 7]), eof: false)
        #expect(try WireCoding.decode(ChunkReply.self, from: WireCoding.line(c)) == c)
        let r = try WireCoding.decode(ResultReply<Int>.self, class: "STORE", from: WireCoding.line(ResultReply(.store, op: "unseen", result: 2)))
        #expect(r.result == 2 && r.op == "unseen" && r.wireClass == "STORE")
    }

    @Test func everyCommandIsDocumented() throws {
        let doc = try String(contentsOf: TestData.repo("PROTOCOL.md"), encoding: .utf8)
        for c in Command.allCases {
            #expect(doc.contains("### \(c.rawValue)"), "PROTOCOL.md has no section for \(c.rawValue)")
        }
        for code in ErrorCode.allCases {
            #expect(doc.contains("`\(code.rawValue)`"), "PROTOCOL.md does not explain the error code \(code.rawValue)")
        }
        for cls in ResultClass.allCases.map(\.rawValue) + ["VERSION", "WATCH", "STATUS", "POLL", "TRACKING", "UPLOAD", "EXPORT", "CHUNK", "ERROR", "TARGETS"] {
            #expect(doc.contains("`\(cls)`") || doc.contains("\"class\":\"\(cls)\""), "PROTOCOL.md does not show the \(cls) reply")
        }
        #expect(doc.contains("\"proto_minor\":\(ProtocolVersion.minor)"))
    }
}
