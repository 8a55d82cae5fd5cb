import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// A geocache's whole listing in `hotcold show`: the short description, the long one (where a
/// multi-cache's stages are) as paragraphs of text — its HTML read for the words, a script's
/// text never shown, a control character escaped — and the listing's link; its waypoints shown
/// as the cache's stages, and a stage's own page sends rating and notes to its cache. The
/// importers keep both (GPX 1.0 `url`, GPX 1.1 `link`, LOC `link`).
@Suite(.offCooperativePool) struct GeocacheListingTests {
    static let long = """
        &lt;h2&gt;The stages&lt;/h2&gt;&lt;p&gt;Start at the &lt;b&gt;parking&lt;/b&gt;.&lt;br&gt;Count the fence posts: that is A.&lt;/p&gt;\
        &lt;ul&gt;&lt;li&gt;Stage 1 at S 30° 17.A00&lt;/li&gt;&lt;li&gt;Final: under the bridge &amp;amp; left&lt;/li&gt;&lt;/ul&gt;\
        &lt;script&gt;alert('no')&lt;/script&gt;&lt;p&gt;Watch for snakes&amp;#x1B;[2J here.&lt;/p&gt;
        """

    static let gpx10 = """
        <?xml version="1.0" encoding="utf-8"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/0" version="1.0" creator="Groundspeak">
        <wpt lat="-30.2930" lon="153.1300"><name>GC7LONG</name><desc>Multi by tester</desc>
        <url>https://coord.info/GC7LONG</url><urlname>The Long Multi</urlname><type>Geocache|Multi-cache</type>
        <groundspeak:cache id="1" available="True" archived="False" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
        <groundspeak:name>The Long Multi</groundspeak:name><groundspeak:owner>tester</groundspeak:owner>
        <groundspeak:type>Multi-cache</groundspeak:type><groundspeak:container>Small</groundspeak:container>
        <groundspeak:difficulty>3</groundspeak:difficulty><groundspeak:terrain>2</groundspeak:terrain>
        <groundspeak:short_description html="True">A walk along the creek.</groundspeak:short_description>
        <groundspeak:long_description html="True">\(long)</groundspeak:long_description>
        </groundspeak:cache></wpt>
        <wpt lat="-30.2925" lon="153.1295"><name>PK7LONG</name><cmt>Park by the gate</cmt><desc>Parking Area</desc><sym>Parking Area</sym><type>Waypoint|Parking Area</type></wpt>
        </gpx>
        """

    static let gpx11 = """
        <?xml version="1.0" encoding="utf-8"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="test">
        <wpt lat="-30.30" lon="153.12"><name>OC1LINK</name><link href="https://www.opencaching.de/OC1LINK"><text>listing</text></link><type>Geocache</type></wpt>
        </gpx>
        """

    static let loc = """
        <?xml version="1.0" encoding="UTF-8"?>
        <loc version="1.0" src="Groundspeak"><waypoint><name id="GC7LOC"><![CDATA[By the jetty by tester]]></name>
        <coord lat="-30.31" lon="153.13"/><type>Geocache</type><link text="Cache Details">https://coord.info/GC7LOC</link></waypoint></loc>
        """

    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args)
    }

    @Test func showPrintsTheWholeListingItsLinkAndItsStages() throws {
        let dir = try TemporaryDirectory("listing")
        defer { dir.remove() }
        let db = dir.path("hc.sqlite")
        for (name, text) in [("multi.gpx", Self.gpx10), ("oc.gpx", Self.gpx11), ("one.loc", Self.loc)] {
            try text.write(toFile: dir.path(name), atomically: true, encoding: .utf8)
            let r = try hotcold(["import", dir.path(name), "--db", db])
            try #require(r.status == 0, "\(name): \(r.stderr)")
        }
        let show = try hotcold(["show", "GC7LONG", "--db", db])
        #expect(show.status == 0, "\(show.stderr)")
        let out = show.stdout
        for expected in ["A walk along the creek.", "The stages", "Start at the parking.\n\nCount the fence posts: that is A.",
                         "• Stage 1 at S 30° 17.A00", "• Final: under the bridge & left", "link: https://coord.info/GC7LONG",
                         "stage PK7LONG: Parking Area at -30.2925,153.1295"] {
            #expect(out.contains(expected), "\(expected) in:\n\(out)")
        }
        #expect(!out.contains("<") && !out.contains("alert("), "no markup, no script's text:\n\(out)")
        #expect(!out.contains("\u{1B}") && out.contains("Watch for snakes\\e[2J here."), "the escape shown, not obeyed:\n\(out)")

        // A stage's page: the cache it belongs to, and no rating or note of its own.
        let stage = try hotcold(["show", "PK7LONG", "--db", db]).stdout
        #expect(stage.contains("a stage of the cache GC7LONG (Parking Area)") && stage.contains("rate, favourite and note its cache: hotcold show GC7LONG"),
                "\(stage)")

        // Nor can one be given any: the cache is rated, favourited and noted.
        for args in [["rate", "PK7LONG", "4"], ["fav", "PK7LONG"], ["note", "PK7LONG", "park here"]] {
            let r = try hotcold(args + ["--db", db])
            #expect(r.status != 0 && r.stderr.contains("PK7LONG is a stage of the cache GC7LONG"), "\(args): \(r.stderr)")
        }
        #expect(try hotcold(["rate", "GC7LONG", "4", "--db", db]).status == 0)

        // The other formats' links are kept and shown.
        #expect(try hotcold(["show", "OC1LINK", "--db", db]).stdout.contains("link: https://www.opencaching.de/OC1LINK"))
        #expect(try hotcold(["show", "GC7LOC", "--db", db]).stdout.contains("link: https://coord.info/GC7LOC"))
    }
}
