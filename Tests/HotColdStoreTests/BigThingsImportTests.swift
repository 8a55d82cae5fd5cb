import Foundation
import HotColdCore
@testable import HotColdProtocol
@testable import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct BigThingsImportTests {
    @Test func catalogueImportsWithValidationReport() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let r = try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        #expect(r.format == .bigThingsCatalogue)
        // 485 rows: the Rocking Horse is invalid, the other 8 partiklezoo rows duplicate halans rows.
        #expect(r.skipped.count == 1)
        let horse = try #require(r.skipped.first)
        #expect(horse.id == "partiklezoo:8")
        #expect(horse.name == "Big Rocking Horse")
        #expect(horse.message.contains("outside SA"))
        #expect(r.warnings.filter { $0.field == "same_object_as" }.count == 8)
        let shared = r.warnings.filter { $0.message.contains("share the coordinate") }
        #expect(shared.count == 23)
        #expect(shared.contains { $0.message.contains("Big Owl (halans:fd1db8fcd9)") && $0.message.contains("Big Frogs") })
        #expect(r.inserted == 476)
        #expect(try f.count("SELECT count(*) FROM big_thing") == 476)
        let banana = try #require(try f.store.place(id: "halans:d0577fb8cf"))
        #expect(banana.bigThing?.state == .nsw)
    }

    @Test func secondImportChangesNothing() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        let before = try f.dump()
        let r = try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        #expect(r.inserted == 0 && r.updated == 0 && r.unchanged == 476)
        #expect(try f.dump() == before)
    }

    @Test func strictRefusesTheWholeFile() throws {
        let f = try StoreFixture(); defer { f.remove() }
        #expect(throws: ImportError.self) {
            try f.store.importFile(at: data("bigthings/bigthings.json"), strict: true, user: f.user)
        }
        #expect(try f.count("SELECT count(*) FROM place") == 0)
    }

    @Test func outOfRangeAndBadStateRowsAreSkippedByName() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let json = """
        {"updated": "2024-01-01T00:00:00Z", "things": [
          {"id": 1, "name": "Big Ok", "state": "QLD", "lat": -26.67, "lon": 152.99, "rating": 4.5, "votes": 12, "tags": ["fruit"]},
          {"id": 2, "name": "Big Far", "state": "NSW", "lat": -130.0, "lon": 150.0},
          {"id": 3, "name": "Big Nowhere", "state": "XYZ", "lat": -30.0, "lon": 150.0},
          {"id": 4, "name": "Big Stringy", "state": "VIC", "lat": "minus thirty", "lon": 145.0}
        ]}
        """
        let r = try f.store.importData(Data(json.utf8), file: "api.json", user: f.user)
        #expect(r.format == .bigThingsAPI)
        #expect(r.inserted == 1)
        #expect(r.skipped.map(\.name) == ["Big Far", "Big Nowhere", "Big Stringy"])
        #expect(r.skipped[0].field == "lat" && r.skipped[0].message.contains("out of range"))
        #expect(r.skipped[1].field == "state")
        #expect(r.skipped[2].row == 4 && r.skipped[2].field == "lat")
        let ok = try #require(try f.store.place(id: "1"))
        #expect(ok.bigThing?.rating == 4.5 && ok.bigThing?.votes == 12 && ok.bigThing?.tags == ["fruit"])
    }

    @Test func malformedFileGivesLineAndColumnAndStoresNothing() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("challenges/cochlear-test-locations.json"), user: f.user)
        let before = try f.dump()
        let bad = "{\"things\": [\n  {\"id\": 1, \"name\": \"Big A\",\n   \"lat\": -30.0 \"lon\": 150.0}\n]}\n"
        do {
            try f.store.importData(Data(bad.utf8), file: "bad.json", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(file, line, column, message) {
            #expect(file == "bad.json")
            #expect(line == 3)
            #expect(column == 17)   // the quote opening "lon"
            #expect(message.contains("','"))
        }
        #expect(try f.dump() == before)
    }

    @Test func bundledCatalogueLoadsOnce() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let first = try f.store.loadBundledCatalogueIfEmpty(user: f.user)
        #expect(first?.inserted == 476)
        #expect(try f.store.loadBundledCatalogueIfEmpty(user: f.user) == nil)
        #expect(try BundledData.catalogueURL().path.hasSuffix("data/bigthings.json"))
    }

    @Test func searchIsCaseAndAccentInsensitiveAndSorts() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        let bananas = try f.store.search(SearchRequest(text: "BANÀNA"), user: f.user).rows
        #expect(bananas.contains { $0.place.id == "halans:d0577fb8cf" })
        let qld = try f.store.search(SearchRequest(state: "QLD"), user: f.user).rows
        // The catalogue counts 117 in QLD; 2 of them are partiklezoo duplicates of halans rows.
        #expect(qld.count == 115)
        let names = qld.map { PlaceOrder.nameKey($0.place.name) }
        #expect(names == names.sorted())
        try f.store.rate(placeID: qld.last!.place.id, user: f.user, stars: 5)
        let byRating = try f.store.search(SearchRequest(state: "QLD", sort: "rating"), user: f.user).rows
        #expect(byRating.first?.place.id == qld.last!.place.id)
        let sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let near = try f.store.search(SearchRequest(sort: "distance", origin: sydney, limit: 5), user: f.user).rows
        #expect(near.count == 5)
        #expect(near.map { $0.distance! } == near.map { $0.distance! }.sorted())
    }

    /// `--sort name` orders by the name alone: the town was part of the key, so "The Big Fish
    /// Windvane" (Fish Creek) came before "The Big Fish" (Yalata). Ties go by town.
    @Test func nameSortIgnoresTownPunctuationAndLeadingThe() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        let all = try f.store.search(SearchRequest(sort: "name"), user: f.user).rows
        func position(_ name: String, town: String? = nil) throws -> Int {
            try #require(all.firstIndex { $0.place.name == name && (town == nil || $0.town == town) })
        }
        #expect(try position("The Big Fish", town: "Yalata") < position("The Big Fish Windvane"))
        #expect(try position("The Big Orange Goblin") < position("The Big Orange – Mourquong (Mildura)"))
        // "Big Fish" and "The Big Fish" sit together, in town order: Manilla, Wanguri, Yalata.
        let fish = all.filter { ["Big Fish", "The Big Fish"].contains($0.place.name) }.compactMap(\.town)
        #expect(fish == ["Manilla", "Wanguri", "Yalata"])
        let manilla = try position("Big Fish", town: "Manilla")
        #expect(try position("The Big Fish", town: "Yalata") == manilla + 2)
    }

    /// `--sort rating` orders by the user's stars where given, else the catalogue's average, and
    /// each row carries both (and the vote count) so a list can show what it sorted by.
    @Test func ratingSortUsesYoursElseTheCataloguesAndCarriesBoth() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("bigthings/bigthings.json"), user: f.user)
        let banana = "halans:d0577fb8cf"
        let qld = try f.store.search(SearchRequest(state: "QLD"), user: f.user).rows
        let (a, b) = (qld[0].place.id, qld[1].place.id)
        try f.store.database.write { db in
            try db.execute(sql: "UPDATE big_thing SET rating = 4.2, votes = 37 WHERE place_id = ?", arguments: [a])
            try db.execute(sql: "UPDATE big_thing SET rating = 3.5, votes = 1 WHERE place_id = ?", arguments: [b])
        }
        try f.store.rate(placeID: b, user: f.user, stars: 5)
        let list = try f.store.search(SearchRequest(state: "QLD", sort: "rating"), user: f.user).rows
        #expect(list.prefix(2).map(\.place.id) == [b, a])
        #expect(list[0].catalogueRating == 3.5 && list[0].catalogueVotes == 1 && list[0].myRating == 5)
        #expect(list[1].catalogueRating == 4.2 && list[1].catalogueVotes == 37 && list[1].myRating == nil)
        #expect(list[2].sortRating == nil)
        #expect(!list.prefix(2).contains { $0.place.id == banana })
    }
}
