import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Runs the built `hotcold` binary against a database in a temporary directory.
@Suite(.offCooperativePool) struct StoreCLITests {
    let dir: TemporaryDirectory
    var db: String { dir.path("cli.sqlite") }

    init() throws { dir = try TemporaryDirectory("hotcold-cli") }

    @discardableResult
    func hotcold(_ args: String...) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args + ["--db", db])
    }

    @Test func firstUseLoadsTheCatalogueAndSearches() throws {
        defer { dir.remove() }
        let r = try hotcold("things", "--search", "MERINO", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Loaded the bundled catalogue: 476 Big Things"))
        // A path with no file behind it is a new database, and the user is told (issue 31: a typo).
        #expect(r.stderr.contains("there was no database at"), "\(r.stderr)")
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let names = (list ?? []).compactMap { ($0["place"] as? [String: Any])?["name"] as? String }
        #expect(names.contains("Big Merino"))
    }

    @Test func nearRateNoteAndErrors() throws {
        defer { dir.remove() }
        let near = try hotcold("near", "--at", "-30.2963,153.1135", "--kind", "bigthing", "--limit", "3")
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains("Big Banana"))
        #expect(near.stdout.split(separator: "\n").count == 3)
        #expect(try hotcold("rate", "halans:d0577fb8cf", "4").status == 0)
        let bad = try hotcold("rate", "halans:d0577fb8cf", "7")
        #expect(bad.status != 0 && bad.stderr.contains("0 to 5") && bad.stdout.isEmpty)
        let note = try hotcold("note", "halans:d0577fb8cf", "Great milkshakes here")
        #expect(note.stdout.contains("21/500 characters, 3 words"))
        let unknown = try hotcold("seen", "nope:1")
        #expect(unknown.status != 0 && unknown.stderr.contains("No place has the id or the name nope:1"))
        let show = try hotcold("show", "halans:d0577fb8cf")
        #expect(show.stdout.contains("Big Banana") && show.stdout.contains("★★★★☆") && show.stdout.contains("Great milkshakes"))
    }

    @Test func importExportAndMalformedFiles() throws {
        defer { dir.remove() }
        let gpx = TestData.url("geocaches/cachebox3-GC2T9RW.gpx").path
        let first = try hotcold("import", gpx)
        #expect(first.status == 0 && first.stdout.contains("2 new"), "\(first.stderr)")
        let again = try hotcold("import", gpx)
        #expect(again.stdout.contains("0 new, 0 updated, 2 unchanged"))
        let strict = try hotcold("import", "--strict", TestData.url("bigthings/bigthings.json").path)
        #expect(strict.status != 0 && strict.stderr.contains("Big Rocking Horse"))
        let bad = dir.path("bad.json")
        try Data("{\"locations\": [\n  {\"name\": \"x\", \"lat\": 1, \"lng\": }\n]}".utf8).write(to: URL(fileURLWithPath: bad))
        let malformed = try hotcold("import", bad)
        #expect(malformed.status != 0 && malformed.stderr.contains("line 2, column 34"), "\(malformed.stderr)")
        let out = dir.path("places.geojson")
        let export = try hotcold("export", "--format", "geojson", "--output", out)
        #expect(export.status == 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("\"GC2T9RW\"") && text.contains("FeatureCollection"))
    }

    @Test func locationsAndObservations() throws {
        defer { dir.remove() }
        try hotcold("import", TestData.url("challenges/cochlear-test-locations.json").path)
        let ro = try hotcold("rename", "location:bondi-beach", "My beach")
        #expect(ro.status != 0 && ro.stderr.contains("read-only"))
        let add = try hotcold("add", "Camp", "--at", "-33.9,151.2")
        let id = try #require(add.stdout.split(separator: " ").last.map { String($0.dropLast(2)) })
        #expect(try hotcold("rename", id, "Base camp").status == 0)
        let roDelete = try hotcold("delete", "location:bondi-beach")
        #expect(roDelete.status == 65 && roDelete.stderr.contains("came with a locations feed and cannot be deleted"), "\(roDelete.stderr)")
        #expect(try hotcold("delete", id).stdout.contains("Deleted \(id) (Base camp)"))
        #expect(try hotcold("show", id).status != 0, "gone")
        let obs = try hotcold("observe", "bird", "Magpie", "--date", "2024-03-01 07:30", "--at", "-33.9,151.2")
        #expect(obs.status == 0, "\(obs.stderr)")
        let badClass = try hotcold("observe", "dragon", "Smaug")
        #expect(badClass.status != 0)
        let list = try hotcold("observations", "--json")
        #expect(list.stdout.contains("\"classification\" : \"bird\"") && list.stdout.contains("2024-03-01T07:30:00.000Z"))
        // Corrected and deleted by the short id the list shows (or any unambiguous start).
        let table = try hotcold("observations").stdout
        let short = try #require(table.split(separator: " ").first.map(String.init), "\(table)")
        #expect(short.hasPrefix("obs:") && short.count == 12, "\(table)")
        let amend = try hotcold("amend", String(short.prefix(7)), "--title", "Magpie-lark", "--notes", "Pair on the fence")
        #expect(amend.status == 0 && amend.stdout.contains("Amended \(short): bird, Magpie-lark — Pair on the fence."), "\(amend.stderr)")
        #expect(try hotcold("observations").stdout.contains("Magpie-lark — Pair on the fence"))
        #expect(try hotcold("amend", short, "--notes", "").stdout.contains("Amended \(short): bird, Magpie-lark."))
        #expect(try hotcold("amend", short).status == 64, "nothing to change")
        #expect(try hotcold("amend", "obs:ffffffff", "--title", "X").stderr.contains("No observation has the id obs:ffffffff"))
        #expect(try hotcold("unobserve", short).stdout.contains("Deleted \(short) (bird: Magpie-lark)."))
        let none = try hotcold("observations")
        #expect((none.stdout + none.stderr).contains("No observations yet."), "\(none.stdout)")
    }
}
