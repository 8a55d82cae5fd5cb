import Foundation
import HotColdCore
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct RoundTripTests {
    /// A store with every kind: Big Things, caches with waypoints and corrected coordinates, locations.
    func filled() throws -> StoreFixture {
        let f = try StoreFixture()
        for file in ["bigthings/bigthings.json", "geocaches/cachebox3-GC2T9RW.gpx", "geocaches/cachebox3-OCF19A.gpx",
                     "geocaches/cachebox3-gsak-correctedCoords.gpx", "geocaches/gpsbabel-GC7FA4.gpx",
                     "challenges/cochlear-test-locations.json"] {
            try f.store.importFile(at: data(file), user: f.user)
        }
        _ = try f.store.addLocation(name: "Camp <Ü> & \"co\"", at: Coordinate(latitude: -33.1, longitude: 151.5), user: f.user)
        return f
    }

    @Test(arguments: [ExportFormat.gpx, .geojson])
    func exportThenImportGivesTheSamePlaces(format: ExportFormat) throws {
        let a = try filled(); defer { a.remove() }
        let exported = try a.store.export(format: format, user: a.user)
        let b = try StoreFixture(); defer { b.remove() }
        let r = try b.store.importData(exported, file: "export.\(format.rawValue)", user: b.user)
        #expect(r.skipped.isEmpty, "\(r.skipped)")
        let original = try a.store.allPlaces()
        let copy = try b.store.allPlaces()
        #expect(copy.map(\.place) == original.map(\.place))
        #expect(copy.map(\.bigThing) == original.map(\.bigThing))
        #expect(copy.map(\.geocache) == original.map(\.geocache))
        #expect(copy.map(\.waypoint) == original.map(\.waypoint))
        #expect(copy.map { $0.location?.origin } == original.map { $0.location?.origin })
        // And importing the export into the original store changes nothing.
        let before = try a.dump()
        let same = try a.store.importData(exported, file: "export", user: a.user)
        #expect(same.inserted == 0 && same.updated == 0)
        #expect(try a.dump() == before)
    }

    @Test(arguments: [ExportFormat.gpx, .geojson])
    func visitsExport(format: ExportFormat) throws {
        let f = try filled(); defer { f.remove() }
        try f.store.recordArrival(placeID: "GC2T9RW", user: f.user, at: Date(timeIntervalSince1970: 1_700_000_000), episode: "e1")
        try f.store.markSeen(placeID: "halans:d0577fb8cf", user: f.user, at: Date(timeIntervalSince1970: 1_700_000_100))
        let text = String(decoding: try f.store.export(format: format, visits: true, user: f.user), as: UTF8.self)
        #expect(text.contains("2023-11-14T22:13:20.000Z"))
        #expect(text.contains("automatic") && text.contains("manual"))
        #expect(text.contains("Big Banana"))
    }
}
