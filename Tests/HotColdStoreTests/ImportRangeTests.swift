import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Numbers from import files that would later reach a trapping conversion (`Int(1e300)` in
/// `hotcold show`) or nonsense on export are refused or left unknown at the import, naming the
/// row and field.
@Suite(.offCooperativePool) struct ImportRangeTests {
    @Test func gpxDifficultyAndTerrainOutOfRangeAreLeftUnknown() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0"
             xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
          <wpt lat="-30.3" lon="153.1"><name>GCHUGE</name><type>Geocache|Traditional Cache</type>
            <groundspeak:cache id="1" available="True" archived="False">
              <groundspeak:name>Huge</groundspeak:name>
              <groundspeak:difficulty>1e300</groundspeak:difficulty>
              <groundspeak:terrain>nan</groundspeak:terrain>
            </groundspeak:cache>
          </wpt>
          <wpt lat="-30.4" lon="153.1"><name>GCFINE</name><type>Geocache|Traditional Cache</type>
            <groundspeak:cache id="2" available="True" archived="False">
              <groundspeak:name>Fine</groundspeak:name>
              <groundspeak:difficulty>2,5</groundspeak:difficulty>
              <groundspeak:terrain>5</groundspeak:terrain>
            </groundspeak:cache>
          </wpt>
        </gpx>
        """
        let r = try f.store.importData(Data(gpx.utf8), file: "caches.gpx", user: f.user)
        #expect(r.inserted == 2)
        let huge = try #require(try f.store.place(id: "GCHUGE")?.geocache)
        #expect(huge.difficulty == nil && huge.terrain == nil)
        let fine = try #require(try f.store.place(id: "GCFINE")?.geocache)
        #expect(fine.difficulty == 2.5 && fine.terrain == 5)
    }

    @Test(arguments: [
        ("difficulty", "1e300", "geocache"),
        ("terrain", "-1", "geocache"),
        ("original_latitude", "1e300", "geocache"),
        ("original_longitude", "-181", "geocache"),
    ])
    func geoJSONGeocacheNumbersOutOfRangeNameTheirField(_ field: String, _ value: String, _ kind: String) throws {
        let f = try StoreFixture(); defer { f.remove() }
        let json = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"Point","coordinates":[153.1,-30.3]},
           "properties":{"kind":"\(kind)","code":"GC1","name":"One","\(field)":\(value)}}]}
        """
        let r = try f.store.importData(Data(json.utf8), file: "caches.geojson", user: f.user)
        #expect(r.inserted == 0)
        let issue = try #require(r.skipped.first)
        #expect(issue.row == 1 && issue.field == field, "\(issue)")
        #expect(issue.message.contains("out of range"), "\(issue.message)")
    }

    @Test func bigThingRatingAndVotesOutOfRangeNameTheirField() throws {
        let f = try StoreFixture(); defer { f.remove() }
        for (field, value) in [("rating", "1e300"), ("rating", "5.5"), ("votes", "-3"), ("votes", "1e14")] {
            let json = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[153.1353,-30.2767]},
               "properties":{"kind":"bigthing","id":"t:1","name":"Big Banana","state":"NSW","\(field)":\(value)}}]}
            """
            let r = try f.store.importData(Data(json.utf8), file: "things.geojson", user: f.user)
            #expect(r.inserted == 0, "\(field)=\(value)")
            #expect(r.skipped.first?.field == field, "\(field)=\(value): \(r.skipped)")
        }
    }
}
