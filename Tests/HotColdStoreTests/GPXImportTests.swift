import Foundation
import HotColdCore
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct GPXImportTests {
    @Test func pocketQueryAndItsWaypoints() throws {
        let f = try StoreFixture(); defer { f.remove() }
        // Waypoints first: they must not need their caches to exist yet.
        let w = try f.store.importFile(at: data("geocaches/cachebox3-6004539_HomeZone-wpts.gpx"), user: f.user)
        #expect(w.inserted == 183)
        let r = try f.store.importFile(at: data("geocaches/cachebox3-6004539_HomeZone.gpx"), user: f.user)
        #expect(r.format == .gpx && r.inserted == 500 && r.skipped.isEmpty)
        #expect(try f.count("SELECT count(*) FROM geocache") == 500)
        #expect(try f.count("SELECT sum(logs_count) FROM geocache") == 2534)
        let c = try #require(try f.store.place(id: "GC2YTQJ"))
        #expect(c.place.name == "Stadtloofer")
        #expect(c.geocache?.difficulty == 4.5 && c.geocache?.terrain == 2)
        #expect(c.geocache?.container == "Micro" && c.geocache?.owner == "Mutwataly")
        let multi = try #require(try f.store.place(id: "GCV272"))
        #expect(multi.waypoints.map(\.id).contains("AAV272"))
        // Importing again changes nothing.
        let before = try f.dump()
        let again = try f.store.importFile(at: data("geocaches/cachebox3-6004539_HomeZone.gpx"), user: f.user)
        #expect(again.inserted == 0 && again.updated == 0 && again.unchanged == 500)
        #expect(try f.dump() == before)
    }

    @Test func everyGeocacheFileImports() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let files = try FileManager.default.contentsOfDirectory(atPath: data("geocaches").path)
            .filter { $0.hasSuffix(".gpx") }
        #expect(files.count == 8)
        for file in files {
            let r = try f.store.importFile(at: data("geocaches/\(file)"), user: f.user)
            #expect(r.skipped.isEmpty, "\(file): \(r.skipped)")
            #expect(r.total > 0, "\(file)")
        }
        // GPX 1.1 GSAK export.
        let gsak = try #require(try f.store.place(id: "GC1XCEW"))
        #expect(gsak.geocache?.archived == true && gsak.place.active == false)
        // GSAK corrected coordinates are preferred; the listed point is kept.
        let corrected = try #require(try f.store.place(id: "GC250Q2"))
        #expect(corrected.place.latitude == 48.76687 && corrected.place.longitude == 9.18288)
        #expect(corrected.geocache?.originalLatitude == 48.766867)
        #expect(corrected.geocache?.originalLongitude == 9.183033)
        // Older groundspeak/cache/1/0 namespace.
        let old = try #require(try f.store.place(id: "GC7FA4"))
        #expect(old.geocache?.cacheType == "Locationless (Reverse) Cache")
        #expect(old.place.name == "Points géodésiques du Québec")
        // opencaching.de with GSAK parent links.
        let oc = try #require(try f.store.place(id: "OCF19A"))
        #expect(oc.waypoints.map(\.id) == ["OCF19A-1", "OCF19A-2", "OCF19A-3"])
        // A single cache and its parking waypoint in one file.
        let hampir = try #require(try f.store.place(id: "GC2T9RW"))
        #expect(hampir.waypoints.map(\.id) == ["PK2T9RW"])
        #expect(hampir.geocache?.hint == "wenn du ihn nicht findest, findet er dich!!")
        let archived = try #require(try f.store.place(id: "GCGCA8"))
        #expect(archived.geocache?.archived == true)
    }

    @Test func malformedXMLNamesLineAndStoresNothing() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let bad = """
        <?xml version="1.0"?>
        <gpx version="1.0">
          <wpt lat="1" lon="2"><name>GC1</name>
          </wpx>
        </gpx>
        """
        do {
            try f.store.importData(Data(bad.utf8), file: "bad.gpx", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(file, line, _, _) {
            #expect(file == "bad.gpx")
            #expect(line == 4)
        }
        #expect(try f.count("SELECT count(*) FROM place") == 0)
    }

    /// FoundationXML trapped (killing the importing process, the daemon included) on element and
    /// processing-instruction names that are not UTF-8; fuzzing found both. Refused at the edge.
    @Test(arguments: [
        Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.0\">\n<wpt lat=\"1\" lon=\"2\"><n".utf8) + [0xFF, 0xFE] + Array("a>x</n\u{FF}>".utf8),
        Array("<?".utf8) + [0xFF, 0xFF, 0xFF] + Array("xml version=\"1.0\"?>\n<gpx/>".utf8),
    ])
    func namesThatAreNotUTF8AreRefusedNotATrap(bytes: [UInt8]) throws {
        let f = try StoreFixture(); defer { f.remove() }
        do {
            try f.store.importData(Data(bytes), file: "bytes.gpx", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(file, line, _, message) {
            #expect(file == "bytes.gpx" && line >= 1 && message.contains("UTF-8"), "\(message)")
        }
        #expect(try f.count("SELECT count(*) FROM place") == 0)
    }

    /// FoundationXML called strlen(NULL) on a processing instruction with no data (fuzzing). The
    /// streaming scanner skips processing instructions: a broken one refuses the file with its
    /// place, a legal empty one (`<?pi ?>`) is no reason to refuse it.
    @Test func aProcessingInstructionIsSkippedNotACrash() throws {
        let f = try StoreFixture(); defer { f.remove() }
        do {
            try f.store.importData(Data("<?<?xb7e?>??".utf8), file: "pi.gpx", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(file, line, _, message) {
            #expect(file == "pi.gpx" && line == 1 && message.contains("root element"), "\(message)")
        }
        let legal = "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\">\n  <?pi ?>\n  <wpt lat=\"1\" lon=\"2\"><?x?><name>Spot</name></wpt>\n</gpx>\n"
        let r = try f.store.importData(Data(legal.utf8), file: "pi.gpx", user: f.user)
        #expect(r.inserted == 1)
        #expect(try f.count("SELECT count(*) FROM place WHERE name = 'Spot'") == 1)
    }

    /// Entities and character references are decoded in text and attributes, CDATA is text, and
    /// what XML does not allow (an undefined entity, a bare '&', an unquoted attribute) refuses
    /// the file with its line.
    @Test func entitiesCDATAAndAttributeSyntax() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let good = """
        <?xml version="1.0"?>
        <!DOCTYPE gpx>
        <gpx version="1.0" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
          <wpt lat='48.5' lon="9.&#x31;"><name>GC1AB</name><type>Geocache|Traditional Cache</type>
            <groundspeak:cache available="True" archived="False">
              <groundspeak:name>Fish &amp; Chips &#228; &lt;3</groundspeak:name>
              <groundspeak:long_description html="True"><![CDATA[<b>bold & ]] plain]]></groundspeak:long_description>
            </groundspeak:cache>
          </wpt>
        </gpx>
        """
        _ = try f.store.importData(Data(good.utf8), file: "e.gpx", user: f.user)
        let c = try #require(try f.store.place(id: "GC1AB"))
        #expect(c.place.name == "Fish & Chips ä <3")
        #expect(c.place.longitude == 9.1)
        #expect(c.geocache?.longDescription == "<b>bold & ]] plain")
        #expect(c.geocache?.descriptionIsHTML == true)
        for (bad, line, words) in [
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a &nbsp; b</name></wpt></gpx>", 2, "entity that is not defined"),
            ("<gpx>\n\n<wpt lat=\"1\" lon=\"2\"><name>a & b</name></wpt></gpx>", 3, "'&'"),
            ("<gpx>\n<wpt lat=1 lon=\"2\"><name>a</name></wpt></gpx>", 2, "without quotes"),
            ("<gpx>\n<wpt lat=\"1\" lon=\"&bogus;\"/></gpx>", 2, "entity that is not defined"),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>&#0;</name></wpt></gpx>", 2, "no character"),
            ("<gpx/>\ntrailing", 2, "after the root"),
        ] {
            do {
                try f.store.importData(Data(bad.utf8), file: "bad.gpx", user: f.user)
                Issue.record("expected an error for \(bad)")
            } catch let ImportError.malformed(file, l, _, message) {
                #expect(file == "bad.gpx" && l == line && message.contains(words), "\(bad): \(l) \(message)")
            }
        }
        #expect(try f.count("SELECT count(*) FROM place") == 1)
    }

    /// Text is capped (a cache description over 1 MiB refuses the file rather than being cut).
    @Test func overlongTextIsRefusedNotCut() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let long = String(repeating: "x", count: (1 << 20) + 1)
        let text = "<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a</name><desc>\(long)</desc></wpt></gpx>"
        do {
            try f.store.importData(Data(text.utf8), file: "big.gpx", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(_, line, _, message) {
            #expect(line == 2 && message.contains("text longer than"), "\(message)")
        }
    }

    /// XMLParser on Linux reports a mismatched end tag at the document's end yet returns true
    /// from parse(): the import must still refuse the file and store nothing.
    @Test func mismatchedEndTagAtTheEndIsStillMalformed() throws {
        let f = try StoreFixture(); defer { f.remove() }
        let before = try f.count("SELECT count(*) FROM place")
        let bad = "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\"><wpt lat=\"1\" lon=\"2\"><name>GC1</name>\n<oops></gpx>\n"
        do {
            try f.store.importData(Data(bad.utf8), file: "cut.gpx", user: f.user)
            Issue.record("expected an error")
        } catch let ImportError.malformed(file, line, _, message) {
            #expect(file == "cut.gpx")
            #expect(line == 3)
            #expect(message.contains("malformed XML") || message.contains("tag"), "\(message)")
        }
        #expect(try f.count("SELECT count(*) FROM place") == before)
    }
}
