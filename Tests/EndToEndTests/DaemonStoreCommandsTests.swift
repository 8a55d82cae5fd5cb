import Foundation
import Glibc
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Every store command answered by a real hotcoldd over its socket, decoded into the store's
/// own types (what the offline `--db` path returns), and uploads that are all-or-nothing.
@Suite(.offCooperativePool) struct DaemonStoreCommandsTests {
    let banana = "halans:d0577fb8cf"

    func connect(_ d: DaemonProcess) throws -> LineClient {
        // The socket file appears at bind, a moment before the daemon listens.
        let deadline = ContinuousClock.now + .seconds(20)
        var client: LineClient?
        while client == nil {
            do { client = try LineClient(path: d.socketPath) } catch {
                if ContinuousClock.now > deadline { throw error }
                usleep(20_000)
            }
        }
        let c = client!
        let v = try c.reply(VersionReply.self)
        #expect(v.protoMajor == 1 && v.protoMinor == ProtocolVersion.minor)
        return c
    }

    func refusal(_ body: () throws -> Void) -> ProtocolError? {
        do { try body() } catch let ClientError.refused(e) { return e } catch { Issue.record("not a refusal: \(error)") }
        return nil
    }

    @Test func readsAndChangesAnswerWithStoreTypes() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try connect(d)

        let found = try c.call(.search(SearchRequest(text: "banana")), result: .places, as: [PlaceSummaryPayload].self)
        #expect(found.contains { $0.place.id == banana })
        try c.send(.search(SearchRequest(limit: 5, offset: 5)))
        let paged = try c.result(.places, as: [PlaceSummaryPayload].self)
        #expect(paged.result.count == 5 && paged.more == true)

        let visit = try c.call(.store(StoreRequest(.seen(id: banana))), result: .store, as: VisitPayload.self)
        #expect(visit.placeId == banana)
        _ = try c.call(.store(StoreRequest(.rate(id: banana, stars: 4))), result: .store, as: RatingPayload.self)
        _ = try c.call(.store(StoreRequest(.note(id: banana, text: "Big"))), result: .store, as: NotePayload?.self)
        let shown = try c.call(.place(PlaceRequest(id: banana)), result: .place,
                               as: PlaceViewPayload.self)
        #expect(shown.detail.place.id == banana)
        #expect(shown.mine.visits.count == 1 && shown.mine.rating?.stars == 4 && shown.mine.note?.text == "Big")

        let visits = try c.call(.visits, result: .visits, as: [VisitRecordPayload].self)
        #expect(visits.map(\.place.id) == [banana])

        let coffs = Coordinate(latitude: -30.2748, longitude: 153.1338)
        let near = try c.call(.near(NearRequest(at: coffs, kinds: ["bigthing"], limit: 3)), result: .near, as: [NearbyPlace].self)
        #expect(near.count == 3 && near[0].distanceM <= near[1].distanceM)
        // No point given and no fix yet: the daemon says so.
        #expect(refusal { _ = try c.call(.near(NearRequest()), result: .near, as: [NearbyPlace].self) }?.field == "lat")

        let when = ISO8601.parse("2024-03-01T07:30:00Z")!
        _ = try c.call(.store(StoreRequest(.observe(.init(classification: "bird", title: "Cockatoo", date: when, at: coffs)))),
                       result: .store, as: ObservationPayload.self)
        let observed = try c.call(.observations, result: .observations, as: [ObservationPayload].self)
        #expect(observed.map(\.title) == ["Cockatoo"] && observed.first?.observedAt == when)

        let outbox = try c.call(.outbox, result: .outbox, as: [OutboxEntry].self)
        #expect(outbox.contains { $0.kind == "rating" && $0.placeId == banana })

        let export = try c.call(.export(ExportRequest(format: "gpx", visits: true)), expecting: ExportReply.self)
        let gpx = try c.download(id: export.id, size: export.size)
        #expect(gpx.count == export.size)
        #expect(String(decoding: gpx, as: UTF8.self).contains("Big Banana"))
        let places = try c.call(.export(ExportRequest(format: "geojson")), expecting: ExportReply.self)
        #expect(places.size > Int(Limits.chunkBytes), "more than one chunk")
        let geojson = try c.download(id: places.id, size: places.size)
        #expect((try JSONSerialization.jsonObject(with: geojson) as? [String: Any])?["type"] as? String == "FeatureCollection")

        #expect(refusal { _ = try c.call(.place(PlaceRequest(id: "nowhere")), result: .place, as: PlaceViewPayload.self) }?.code == .notFound)
        #expect(refusal { _ = try c.call(.store(StoreRequest(.seen(id: "nowhere"))), result: .store, as: VisitPayload.self) }?.code == .notFound)

        // The trap that used to kill the daemon is an error now, and the daemon answers on.
        try c.send(#"{"cmd":"roam","radius":1e19}"#)
        #expect(refusal { _ = try c.reply(TrackingReply.self) }?.code == .outOfRange)
        try c.send(#"{"cmd":"roam","radius":"1e306km"}"#)
        #expect(refusal { _ = try c.reply(TrackingReply.self) }?.code == .outOfRange)
        let status = try c.call(.status, expecting: StatusReply.self)
        #expect(status.database == d.dbPath, "root may write, so it is told the database")
        #expect(d.process.isRunning)
    }

    @Test func importUploadIsStoredWhole() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try connect(d)
        let file = TestData.url("geocaches/cachebox3-6004539_HomeZone.gpx")
        let data = try Data(contentsOf: file)
        #expect(data.count > 100 * Limits.chunkBytes)
        let id = try c.upload(data, purpose: .import)
        let report = try c.call(.import(ImportRequest(upload: id, name: file.lastPathComponent)), result: .import, as: ImportReport.self)
        #expect(report.inserted > 100 && report.file == file.lastPathComponent)
        let caches = try c.call(.search(SearchRequest(kinds: ["geocache"], limit: 1000)), result: .places, as: [PlaceSummaryPayload].self)
        #expect(caches.count == min(1000, report.inserted + report.updated))
        // The upload was consumed: it cannot be imported twice.
        #expect(refusal { _ = try c.call(.import(ImportRequest(upload: id, name: "again")), result: .import, as: ImportReport.self) }?.code == .notFound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.dir.path("uploads")).isEmpty)
    }

    @Test func oversizedAndMisplacedUploadsAreRefused() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try connect(d)
        try c.send(#"{"cmd":"upload","purpose":"import","size":67108865}"#)
        #expect(refusal { _ = try c.reply(UploadReply.self) }?.code == .tooLarge)
        try c.send(#"{"cmd":"upload","purpose":"photo","size":10485761}"#)
        #expect(refusal { _ = try c.reply(UploadReply.self) }?.code == .tooLarge)

        let u = try c.call(.upload(UploadRequest(purpose: .import, size: 10)), expecting: UploadReply.self)
        // A chunk at the wrong offset, then one past the announced size: the upload is cancelled.
        #expect(refusal { _ = try c.call(.chunk(ChunkRequest(upload: u.id, offset: 3, data: Data([1]))), expecting: UploadReply.self) }?.field == "offset")
        #expect(refusal { _ = try c.call(.chunk(ChunkRequest(upload: u.id, offset: 0, data: Data(count: 11))), expecting: UploadReply.self) }?.code == .tooLarge)
        #expect(refusal { _ = try c.call(.import(ImportRequest(upload: u.id, name: "x.gpx")), result: .import, as: ImportReport.self) }?.code == .notFound)

        // An incomplete upload is not imported; a photo upload is not an import.
        let part = try c.call(.upload(UploadRequest(purpose: .import, size: 10)), expecting: UploadReply.self)
        _ = try c.call(.chunk(ChunkRequest(upload: part.id, offset: 0, data: Data(count: 4))), expecting: UploadReply.self)
        #expect(refusal { _ = try c.call(.import(ImportRequest(upload: part.id, name: "x.gpx")), result: .import, as: ImportReport.self) }?.message.contains("incomplete") == true)
        let photo = try c.upload(Data(count: 5), purpose: .photo)
        #expect(refusal { _ = try c.call(.import(ImportRequest(upload: photo, name: "x.gpx")), result: .import, as: ImportReport.self) }?.field == "upload")
        // A file that is not an import format stores nothing.
        let junk = try c.upload(Data("not a catalogue".utf8), purpose: .import)
        #expect(refusal { _ = try c.call(.import(ImportRequest(upload: junk, name: "junk.txt")), result: .import, as: ImportReport.self) } != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.dir.path("uploads")).isEmpty)
    }

    @Test func clientThatLeavesHalfWayLeavesNothing() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let uploads = d.dir.path("uploads")
        let before: [PlaceSummaryPayload]
        do {
            let c = try connect(d)
            before = try c.call(.search(SearchRequest()), result: .places, as: [PlaceSummaryPayload].self)
            let data = try Data(contentsOf: TestData.url("geocaches/cachebox3-6004539_HomeZone.gpx"))
            let u = try c.call(.upload(UploadRequest(purpose: .import, size: data.count)), expecting: UploadReply.self)
            for i in 0..<3 {
                let part = data.subdata(in: i * Limits.chunkBytes ..< (i + 1) * Limits.chunkBytes)
                _ = try c.call(.chunk(ChunkRequest(upload: u.id, offset: i * Limits.chunkBytes, data: part)), expecting: UploadReply.self)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).count == 1, "staged while it lasts")
            // The client goes away here, half-way.
        }
        let gone = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < gone, (try? FileManager.default.contentsOfDirectory(atPath: uploads).count) != 0 {
            usleep(10_000)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty)
        let c2 = try connect(d)
        let after = try c2.call(.search(SearchRequest()), result: .places, as: [PlaceSummaryPayload].self)
        #expect(after.count == before.count)
        #expect(refusal { _ = try c2.call(.import(ImportRequest(upload: "u1", name: "x")), result: .import, as: ImportReport.self) }?.code == .notFound)
    }

    @Test func submissionWithAPhotoIsQueuedWithIt() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        let c = try connect(d)
        var photo = Data(count: 100_000)
        for i in photo.indices { photo[i] = UInt8(truncatingIfNeeded: i &* 31) }
        photo.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])    // a JPEG's signature: the content is checked
        let id = try c.upload(photo, purpose: .photo)
        let when = ISO8601.parse("2024-05-01T10:00:00Z")!
        let s = try c.call(.submit(SubmitRequest(name: "Big Wombat", at: Coordinate(latitude: -35.28, longitude: 149.13), by: "Alice",
                                                 seenAt: when, photo: .init(upload: id, filename: "wombat.jpg", contentType: "image/jpeg"))),
                           result: .submit, as: SubmissionPayload.self)
        #expect(s.id != nil && s.name == "Big Wombat" && s.seenAt == when)
        #expect(s.user == "root", "recorded for the connecting Unix user")
        let outbox = try c.call(.outbox, result: .outbox, as: [OutboxEntry].self)
        let item = try #require(outbox.first { $0.kind == "submission" })
        #expect(item.name == "Big Wombat")
        #expect(item.request.contains("(100000 bytes)"), "\(item.request)")
        // The photo's bytes wait in a file of the daemon's beside the database, exactly, named
        // by the queued request (whose base64 is made when it is sent), not inside it.
        let store = try Store.open(path: d.dbPath)
        let queued = try #require(try store.outbox().first { $0.kind == .submission })
        let body = try JSONDecoder().decode(JSONValue.self, from: queued.payload)
        #expect(body["photo"]?["data_base64"]?.string == "" && queued.photoBytes == photo.count)
        let file = try #require(queued.photoFile)
        #expect(try Data(contentsOf: URL(fileURLWithPath: d.dir.path("photos/" + file))) == photo)
    }

    @Test("a user who may not write reads, is refused writes, and is not told the database",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")))
    func readerIsNotAWriter() throws {
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { d.stop() }
        chmod((d.socketPath as NSString).deletingLastPathComponent, 0o755)
        chmod(d.socketPath, 0o666)
        let lines = [Request.status, .search(SearchRequest(text: "banana")), .store(StoreRequest(.rate(id: banana, stars: 5))),
                     .upload(UploadRequest(purpose: .photo, size: 10))].map(\.line).joined(separator: "\n") + "\n"
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                   ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                                    // Stdin stays open a while: replies computed off the loop
                                    // come after the client has finished sending.
                                    "(cat; sleep 3) | /usr/bin/socat -t 5 - UNIX-CONNECT:\(d.socketPath)"],
                                   input: Data(lines.utf8))
        let out = r.stdout.split(separator: "\n").map(String.init)
        let status = try #require(out.first { WireCoding.className(of: $0) == "STATUS" })
        #expect(try WireCoding.decode(StatusReply.self, from: status).database == nil, "\(status)")
        let places = try #require(out.first { WireCoding.className(of: $0) == "PLACES" })
        #expect(try WireCoding.decode(ResultReply<[PlaceSummaryPayload]>.self, class: "PLACES", from: places).result.contains { $0.place.id == banana })
        let refusals = out.filter { WireCoding.className(of: $0) == "ERROR" }.compactMap {
            try? WireCoding.decoder().decode(ErrorReply.self, from: Data($0.utf8))
        }
        #expect(refusals.map(\.code) == [.notAllowed, .notAllowed], "\(r.stdout)")
        #expect(refusals.map(\.command) == ["store", "upload"])
    }
}
