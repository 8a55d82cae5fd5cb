import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// OwnTracks waypoints (the app's `.otrw` export, or a `setWaypoints` command) become custom
/// locations in a real store: ids stable across imports, bad rows named, repeats skipped.
@Suite(.offCooperativePool) struct OwnTracksWaypointsImportTests {
    /// What OwnTracks writes when a user exports its regions (Settings, Export waypoints).
    static let export = #"""
    {"_type":"waypoints","waypoints":[
      {"_type":"waypoint","desc":"Big Banana car park","lat":-30.27462,"lon":153.13372,"rad":100,"tst":1732338000,"rid":"7b9c2a"},
      {"_type":"waypoint","desc":"Home","lat":-33.8688,"lon":151.2093,"rad":250,"tst":1700000000},
      {"_type":"waypoint","desc":"Nowhere","lat":95,"lon":151,"rad":50,"tst":1700000001},
      {"_type":"waypoint","desc":"Home","lat":-33.8688,"lon":151.2093,"rad":250,"tst":1700000000},
      {"_type":"location","lat":-33.0,"lon":151.0,"tst":1700000002}
    ]}
    """#

    @Test func anExportImportsAsCustomLocationsAndAgainChangesNothing() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let file = f.dir.path("regions.otrw")
        try Self.export.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try f.store.importFile(at: URL(fileURLWithPath: file), user: f.user)
        #expect(r.format == .ownTracksWaypoints)
        #expect(r.inserted == 2)
        #expect(r.skipped.count == 2 && r.skipped.contains { $0.field == "lat" } && r.skipped.contains { $0.field == "_type" })
        #expect(r.warnings.count == 1 && r.warnings[0].message.contains("repeats"))
        let places = try f.store.targets(filter: TargetFilter(kinds: [.location]))
        #expect(Set(places.map(\.name)) == ["Big Banana car park", "Home"])
        let again = try f.store.importFile(at: URL(fileURLWithPath: file), user: f.user)
        #expect(again.inserted == 0)
        #expect(try f.store.targets(filter: TargetFilter(kinds: [.location])).count == 2)
    }

    @Test func aSetWaypointsCommandIsReadToo() throws {
        let cmd = #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Club meet","lat":-30.3,"lon":153.1,"rad":100,"tst":1732338001}]}}"#
        let batch = try Importer.parse(Data(cmd.utf8), file: "cmd.json", user: "tester")
        #expect(batch.format == .ownTracksWaypoints && batch.places.map(\.place.name) == ["Club meet"])
        #expect(batch.places[0].location?.origin == .custom)
    }
}
