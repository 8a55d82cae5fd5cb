import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18: the places and files users have. A Groundspeak `.loc` download imports with its
/// names and links, through the daemon and with --db; geocaches are found by code and name.
@Suite(.offCooperativePool) struct PlacesAndFilesTests {
    /// What geocaching.com's "LOC" download holds: names as "Name by Owner" in CDATA, a link.
    static let loc = """
        <?xml version="1.0" encoding="UTF-8"?>
        <loc version="1.0" src="Groundspeak">
        <waypoint>
        \t<name id="GC2T9RW"><![CDATA[Banana Bender by Coffs Cacher]]></name>
        \t<coord lat="-30.27481" lon="153.13378"/>
        \t<type>Geocache</type>
        \t<link text="Cache Details">https://www.geocaching.com/seek/cache_details.aspx?wp=GC2T9RW</link>
        \t<difficulty>1.5</difficulty>
        \t<terrain>2</terrain>
        \t<container>2</container>
        </waypoint>
        <waypoint>
        \t<name id="GC7FA4"><![CDATA[Jetty by the Sea by Jo]]></name>
        \t<coord lat="-30.3046" lon="153.1447"/>
        \t<type>Geocache</type>
        \t<link text="Cache Details">https://www.geocaching.com/seek/cache_details.aspx?wp=GC7FA4</link>
        </waypoint>
        <waypoint>
        \t<name id="GCBAD"><![CDATA[Nowhere]]></name>
        \t<coord lat="95" lon="153"/>
        \t<type>Geocache</type>
        </waypoint>
        </loc>
        """

    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args, environment: ["HOTCOLD_SOCKET": "/nonexistent/hotcold.sock"])
    }

    @Test("a .loc file imports its caches with names, owners and links, and they are found by code and by name")
    func locImport() throws {
        let dir = try TemporaryDirectory("hotcold-loc")
        defer { dir.remove() }
        let file = dir.path("geocaching.loc")
        try Self.loc.write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        for via in [["--db", dir.path("x.sqlite")], ["--socket", daemon.socketPath]] {
            let r = try hotcold(["import", file] + via)
            #expect(r.status == 0, "\(via): \(r.stderr)")
            #expect(r.stdout == "Imported \(file) (loc): 2 new, 0 updated, 0 unchanged, 1 skipped.\n", "\(r.stdout)")
            #expect(r.stderr.contains("GCBAD") && r.stderr.contains("latitude 95.0 is out of range"), "\(r.stderr)")
            let show = try hotcold(["show", "GC2T9RW", "--json"] + via)
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any], "\(show.stderr)")
            let place = try #require((shown["detail"] as? [String: Any])?["place"] as? [String: Any] ?? shown["place"] as? [String: Any],
                                     "\(show.stdout)")
            #expect(place["name"] as? String == "Banana Bender")
            #expect(show.stdout.contains("\"owner\" : \"Coffs Cacher\""), "\(show.stdout)")
            #expect(show.stdout.contains("https://www.geocaching.com/seek/cache_details.aspx?wp=GC2T9RW"))
            #expect(show.stdout.contains("\"difficulty\" : 1.5"), "\(show.stdout)")
            // The LOC file's container code 2 is stored as people read it (issue 31).
            #expect(show.stdout.contains("\"container\" : \"Micro\""), "\(show.stdout)")
            // " by " inside a name stays in it: only the last one names the owner.
            let jetty = try hotcold(["show", "GC7FA4"] + via)
            #expect(jetty.stdout.hasPrefix("Jetty by the Sea  [geocache]"), "\(jetty.stdout)")
            #expect(jetty.stdout.contains("owner: Jo\nlink: https://www.geocaching.com/seek/cache_details.aspx?wp=GC7FA4\n"), "\(jetty.stdout)")
            // Found by code and by name, across kinds.
            let byCode = try hotcold(["things", "--search", "GC2T9RW"] + via)
            #expect(byCode.status == 0 && byCode.stdout.contains("GC2T9RW") && byCode.stdout.contains("Banana Bender"), "\(byCode.stdout)\(byCode.stderr)")
            let byName = try hotcold(["things", "--search", "banana bender"] + via)
            #expect(byName.stdout.contains("GC2T9RW"), "\(byName.stdout)")
            let onlyThings = try hotcold(["things", "--search", "GC2T9RW", "--kind", "bigthing"] + via)
            #expect(onlyThings.stderr == "No Big Things match.\n", "\(onlyThings.stderr)")
            let none = try hotcold(["things", "--search", "zzqq"] + via)
            #expect(none.status == 0 && none.stderr == "No places match \"zzqq\".\n", "\(none.stderr)")
        }
    }

    @Test("the bundled catalogue carries the source's ratings, merged from the duplicate rows onto the rows kept")
    func bundledRatings() throws {
        let dir = try TemporaryDirectory("hotcold-ratings")
        defer { dir.remove() }
        let db = ["--db", dir.path("x.sqlite")]
        let list = try hotcold(["things", "--sort", "rating", "--json"] + db)
        #expect(list.status == 0, "\(list.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 476)
        let rated = rows.filter { $0["catalogue_rating"] != nil }
        #expect(rated.count == 8, "the 9 partiklezoo rows but Map the Miner (rated 6 of 5): \(rated.count)")
        let banana = try #require(rows.first { ($0["place"] as? [String: Any])?["id"] as? String == "halans:d0577fb8cf" })
        #expect(banana["catalogue_rating"] as? Double == 3.9 && banana["catalogue_votes"] as? Int == 18)
        // Rated first, best first.
        #expect((rows.first?["place"] as? [String: Any])?["name"] as? String == "The Big Golden Gumboot")
        let show = try hotcold(["show", "halans:d0577fb8cf"] + db)
        #expect(show.stdout.contains("catalogue rating: 3.9 (18 votes)\n"), "\(show.stdout)")
        // Importing the catalogue says where each duplicate's rating went.
        let again = try hotcold(["import", TestData.repo("data/bigthings.json").path, "--db", dir.path("y.sqlite")])
        #expect(again.stderr.contains("warning: row 477 \"Big Banana\" (partiklezoo:1), same_object_as: duplicates halans:d0577fb8cf; "
                                      + "its rating 3.9 (18 votes) is kept on halans:d0577fb8cf, the row skipped\n"), "\(again.stderr)")
    }

    @Test("a catalogue listing a thing twice merges the duplicate's rating, even from a row invalid otherwise, and never overrides one")
    func duplicateRatingsMerge() throws {
        let dir = try TemporaryDirectory("hotcold-ratings")
        defer { dir.remove() }
        let file = dir.path("cat.json")
        try """
            {"meta": {}, "things": [
             {"id": "a", "name": "Big A", "state": "NSW", "lat": -30.27, "lon": 153.13},
             {"id": "b", "name": "Big B", "state": "NSW", "lat": -31.0, "lon": 151.0, "rating": 2.5, "votes": 4},
             {"id": "dupA", "name": "Big A", "state": "SA", "lat": 30.27, "lon": 153.13, "rating": 4.2, "votes": 37, "same_object_as": "a"},
             {"id": "dupB", "name": "Big B", "state": "NSW", "lat": -31.0, "lon": 151.0, "rating": 1, "votes": 1, "same_object_as": "b"}
            ]}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let db = ["--db", dir.path("x.sqlite")]
        let r = try hotcold(["import", file] + db)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("2 new, 0 updated, 0 unchanged, 1 skipped.\n"), "\(r.stdout)")
        #expect(try hotcold(["show", "a"] + db).stdout.contains("catalogue rating: 4.2 (37 votes)"))
        #expect(try hotcold(["show", "b"] + db).stdout.contains("catalogue rating: 2.5 (4 votes)"), "its own rating stays")
    }
}
