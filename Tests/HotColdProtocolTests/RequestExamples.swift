import Foundation
import HotColdCore
import HotColdProtocol

/// Several examples of every request, for round trips and the schema test.
enum RequestExamples {
    static let when = ISO8601.parse("2024-11-23T07:25:04.000Z")!
    static let here = Coordinate(latitude: -30.2748, longitude: 153.1338)

    static let all: [Request] = [
        .version, .status, .poll, .visits, .observations, .outbox,
        .watch(WatchRequest()),
        .watch(WatchRequest(enable: false)),
        .watch(WatchRequest(classes: ["ARRIVED", "DEPARTED"], targets: ["GC2T9RW"], since: 17)),
        .hunt(HuntRequest(targets: ["GC2T9RW", "-30.2748,153.1338,Big Banana"])),
        .roam(RoamRequest()),
        .roam(RoamRequest(radius: 20_000, kinds: ["bigthing", "geocache"], unseen: true, favourites: true)),
        .store(StoreRequest(.seen(id: "halans:d0577fb8cf"))),
        .store(StoreRequest(.unseen(id: "halans:d0577fb8cf"))),
        .store(StoreRequest(.fav(id: "GC2T9RW"))),
        .store(StoreRequest(.unfav(id: "GC2T9RW"))),
        .store(StoreRequest(.rate(id: "GC2T9RW", stars: 0))),
        .store(StoreRequest(.note(id: "GC2T9RW", text: "Behind the third fence post"))),
        .store(StoreRequest(.note(id: "GC2T9RW", text: ""))),
        .store(StoreRequest(.add(name: "Camp", at: here))),
        .store(StoreRequest(.rename(id: "loc:1", name: "Camp site"))),
        .store(StoreRequest(.delete(id: "loc:1"))),
        .store(StoreRequest(.observe(.init(classification: "bird", title: "Cockatoo", description: "Twelve", date: when, at: here)))),
        .store(StoreRequest(.observe(.init(classification: "plant", title: "Wattle", date: when)))),
        .search(SearchRequest()),
        .search(SearchRequest(text: "banana", state: "NSW", kinds: ["bigthing"], sort: "distance", origin: here, limit: 5, offset: 10, includeInactive: false)),
        .place(PlaceRequest(id: "GC2T9RW")),
        .near(NearRequest()),
        .near(NearRequest(at: here, kinds: ["geocache"], limit: 3)),
        .export(ExportRequest(format: "gpx")),
        .export(ExportRequest(format: "geojson", visits: true)),
        .download(DownloadRequest(id: "d1", offset: 32768)),
        .upload(UploadRequest(purpose: .import, size: 123_456)),
        .upload(UploadRequest(purpose: .photo, size: 1)),
        .chunk(ChunkRequest(upload: "u1", offset: 0, data: Data("hello".utf8))),
        .import(ImportRequest(upload: "u1", name: "caches.gpx", strict: true)),
        .submit(SubmitRequest(name: "Big Wombat", at: here, by: "Alice", seenAt: when,
                              photo: .init(upload: "u2", filename: "wombat.jpg", contentType: "image/jpeg"))),
        .submit(SubmitRequest(name: "Big Wombat", address: "1 Main St, Wombat NSW", seenAt: when)),
        .report(ReportRequest(service: "hotcold-mqtt", state: "connected", ackedSeq: 1234, pending: 3,
                              detail: "broker 127.0.0.1:1883, layout hotcold")),
        .report(ReportRequest(service: "hotcold-sync", state: "idle")),
        .targets(TargetsRequest()),
        .targets(TargetsRequest(offset: 50, limit: 200)),
    ]
}
