import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18: a custom location's id is short, and every command that takes a place id accepts
/// an unambiguous start of it (4 characters at least), with or without its namespace; an
/// ambiguous start is refused, naming the places it could be. Through the daemon and with --db.
@Suite(.offCooperativePool) struct ShortPlaceIDTests {
    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args, environment: ["HOTCOLD_SOCKET": "/nonexistent/hotcold.sock"])
    }

    func object(_ r: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)\(r.stderr)")
    }

    /// Runs the checks against one way of reaching the store (`where` is `--db FILE` or `--socket PATH`).
    func check(_ where: [String]) throws {
        let added = try hotcold(["add", "Camp", "--at=-30.1,153.1", "--json"] + `where`)
        #expect(added.status == 0, "\(added.stderr)")
        let id = try #require(try object(added)["id"] as? String)
        #expect(id.wholeMatch(of: /location:custom-[0-9a-f]{8}/) != nil, "short: \(id)")
        let hex = String(id.dropFirst("location:custom-".count))

        // Four characters of the id's own part, the part with "custom-", and a longer prefix.
        let fav = try hotcold(["fav", String(hex.prefix(4)), "--json"] + `where`)
        #expect(fav.status == 0, "\(fav.stderr)")
        #expect(try object(fav)["id"] as? String == id, "\(fav.stdout)")
        let renamed = try hotcold(["rename", "custom-" + hex.prefix(5), "Base camp", "--json"] + `where`)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(try object(renamed)["id"] as? String == id)
        let show = try hotcold(["show", String(id.prefix(20))] + `where`)
        #expect(show.status == 0 && show.stdout.contains("Base camp"), "\(show.stdout)\(show.stderr)")

        // Too short to expand: three characters stand for themselves.
        let short = try hotcold(["fav", String(hex.prefix(3))] + `where`)
        #expect(short.status == 65, "\(short.stderr)")
        #expect(short.stderr.hasPrefix("hotcold fav: ") && short.stderr.contains("No place has the id or the name \(hex.prefix(3))")
                && short.stderr.contains("things --search"), "\(short.stderr)")

        // A second location: the namespace alone begins both ids.
        let other = try hotcold(["add", "Creek", "--at=-30.2,153.2", "--json"] + `where`)
        let otherID = try #require(try object(other)["id"] as? String)
        let both = try hotcold(["rate", "location:custom-", "3"] + `where`)
        #expect(both.status == 65, "\(both.stderr)")
        #expect(both.stderr.contains("fits several places") && both.stderr.contains(id)
                && both.stderr.contains(otherID) && both.stderr.contains("give more of the id"), "\(both.stderr)")
        // Nothing was rated.
        let shown = try hotcold(["show", otherID, "--json"] + `where`)
        #expect(!shown.stdout.contains("\"stars\":3"), "\(shown.stdout)")
        // Issue 31: a catalogue id without its namespace, in any case, or by its end; a
        // name one place has opens it; a name several places have lists them.
        for typed in ["9d83c", "9D83C3", "HALANS:9D83C3DEE8", "c3dee8", "big acorns"] {
            let r = try hotcold(["show", typed, "--json"] + `where`)
            #expect(r.status == 0 && r.stdout.contains("halans:9d83c3dee8") && r.stdout.contains("Big Acorns"), "\(typed): \(r.stdout)\(r.stderr)")
        }
        let prawns = try hotcold(["show", "the big prawn"] + `where`)
        #expect(prawns.status == 65 && prawns.stderr.contains("halans:2fcad7b6dd") && prawns.stderr.contains("halans:513e0feff3"),
                "\(prawns.stderr)")
        // The full id still works, and deletes.
        let deleted = try hotcold(["delete", String(hex), "--json"] + `where`)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try object(deleted)["id"] as? String == id)
    }

    @Test func offlineWithAFile() throws {
        let dir = try TemporaryDirectory("hotcold-short-ids")
        defer { dir.remove() }
        try check(["--db", dir.path("x.sqlite")])
    }

    @Test func throughTheDaemon() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target", "-30.3,153.1,Start"])
        defer { daemon.stop() }
        try check(["--socket", daemon.socketPath])
    }
}
