import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct FeedImportTests {
    @Test func locationsFeedGivesReadOnlyDefaults() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let r = try f.store.importFile(at: data("challenges/cochlear-test-locations.json"), user: f.user)
        #expect(r.format == .locationsFeed && r.inserted == 5)
        let bondi = try #require(try f.store.place(id: "location:bondi-beach"))
        #expect(bondi.location?.origin == .default)
        #expect(bondi.place.latitude == -33.889967)
        #expect(throws: StoreError.readOnlyName(id: "location:bondi-beach", name: "Bondi Beach")) {
            try f.store.renameLocation(placeID: "location:bondi-beach", to: "Mine", by: f.user)
        }
        let custom = try f.store.addLocation(name: "Camp", at: Coordinate(latitude: -33.9, longitude: 151.2), user: f.user)
        let renamed = try f.store.renameLocation(placeID: custom.id, to: "Base camp", by: f.user)
        #expect(renamed.name == "Base camp")
        let again = try f.store.importFile(at: data("challenges/cochlear-test-locations.json"), user: f.user)
        #expect(again.unchanged == 5 && again.inserted == 0)
    }

    @Test(arguments: ["field-observations.json", "field-observations_iso8601-variant.json"])
    func observationsImportWithDates(file: String) throws {
        let f = try StoreFixture(); defer { f.remove() }
        let r = try f.store.importFile(at: data("challenges/\(file)"), user: f.user)
        #expect(r.format == .observations && r.inserted == 11)
        let all = try f.store.observations()
        #expect(all.count == 11)
        let hawk = try #require(all.first)
        #expect(hawk.classification == .bird && hawk.title == "Red-tailed Hawk")
        // 2017-06-14 18:00 UTC (the ISO variant adds seconds).
        #expect(abs(hawk.observedAt.timeIntervalSince1970 - 1_497_463_200) < 60)
        let again = try f.store.importFile(at: data("challenges/\(file)"), user: f.user)
        #expect(again.inserted == 0 && again.unchanged == 11)
    }

    @Test func badClassificationOrDateRefusesTheFile() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let badClass = """
        {"observations": [
          {"classification": "bird", "title": "Hawk", "date": "2017-06-14 18:00"},
          {"classification": "dragon", "title": "Smaug", "date": "2017-06-14 18:05"}
        ]}
        """
        #expect(throws: ImportError.invalidRow(file: "obs.json", issue: ImportIssue(
            row: 2, name: "Smaug", field: "classification",
            message: "\"dragon\" is not one of amphibian, bird, fish, insect, mammal, plant, reptile"))) {
            try f.store.importData(Data(badClass.utf8), file: "obs.json", user: f.user)
        }
        let badDate = """
        {"observations": [
          {"classification": "bird", "title": "Hawk", "date": "2017-06-14 18:00"},
          {"classification": "fish", "title": "Trout", "date": "14/06/2017"}
        ]}
        """
        do {
            try f.store.importData(Data(badDate.utf8), file: "obs.json", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.invalidRow(_, issue) {
            #expect(issue.row == 2 && issue.field == "date" && issue.name == "Trout")
        }
        #expect(try f.count("SELECT count(*) FROM observation") == 0)
    }

    @Test func geoJSONPointsIn() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let json = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [151.2153, -33.8568]},
           "properties": {"name": "Opera House"}},
          {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]},
           "properties": {"name": "A road"}}
        ]}
        """
        let r = try f.store.importData(Data(json.utf8), file: "points.geojson", user: f.user)
        #expect(r.format == .geoJSON && r.inserted == 1)
        #expect(r.skipped.first?.name == "A road" && r.skipped.first?.field == "geometry")
        let opera = try #require(try f.store.search(SearchRequest(text: "opera"), user: f.user).rows.first)
        #expect(opera.place.kind == .location && opera.place.longitude == 151.2153)
        let again = try f.store.importData(Data(json.utf8), file: "points.geojson", user: f.user)
        #expect(again.unchanged == 1)
    }
}
