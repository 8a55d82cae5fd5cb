import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18: mistakes explained, by exact text and exit status, from the built binary. Every
/// error line has the form "hotcold COMMAND: …", a command line's with that command's usage.
@Suite(.offCooperativePool) struct MistakesExplainedTests {
    let banana = "halans:d0577fb8cf"

    func hotcold(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), args, environment: ["HOTCOLD_SOCKET": "/nonexistent/hotcold.sock"])
    }

    func usage(_ command: String, _ synopsis: String) -> String {
        "Usage: hotcold \(command) \(synopsis)\n  See 'hotcold \(command) --help' for more information.\n"
    }

    static let rootUsage = "Usage: hotcold <command>\n  See 'hotcold --help' for the commands.\n"

    @Test("a mistyped command is blamed, with the closest names; help of no command fails")
    func commandTypos() throws {
        let statsu = try hotcold(["statsu"])
        #expect(statsu.status == 64)
        #expect(statsu.stderr == "hotcold: unknown command \"statsu\"; did you mean status?\n" + Self.rootUsage)
        let thing = try hotcold(["thing", "--search", "x"])
        #expect(thing.status == 64)
        #expect(thing.stderr == "hotcold: unknown command \"thing\"; did you mean things?\n" + Self.rootUsage)
        let help = try hotcold(["help", "statsu"])
        #expect(help.status == 64)
        #expect(help.stderr == "hotcold help: no command named \"statsu\"; did you mean status?\n" + Self.rootUsage)
        let far = try hotcold(["zzzzzz"])
        #expect(far.stderr == "hotcold: unknown command \"zzzzzz\"; see 'hotcold --help' for the commands\n" + Self.rootUsage)
        // Help itself is no error, for the root, a command and through `help`.
        for args in [["--help"], ["help", "status"], ["status", "--help"]] {
            let r = try hotcold(args)
            #expect(r.status == 0 && r.stdout.contains("USAGE: hotcold") && r.stderr.isEmpty, "\(args): \(r.stderr)")
        }
    }

    @Test("an option ArgumentParser refuses is said in our form, with the command's usage")
    func parserErrorsInOurForm() throws {
        let r = try hotcold(["status", "--bogus"])
        #expect(r.status == 64)
        #expect(r.stderr == "hotcold status: Unknown option '--bogus'\n" + usage("status", "[--socket <PATH>] [--json]"))
        #expect(!r.stderr.contains("Error:"))
    }

    @Test("distances say what is wrong with them")
    func distances() throws {
        let roam = "[--socket <PATH>] [<radius>] [--kind <kind> ...] [--unseen] [--favourites]"
        let spaced = try hotcold(["roam", "10", "km"])
        #expect(spaced.status == 64)
        #expect(spaced.stderr == "hotcold roam: write 10km, without a space\n" + usage("roam", roam))
        let zero = try hotcold(["roam", "0"])
        #expect(zero.status == 64)
        #expect(zero.stderr == "hotcold roam: the distance must be above 0 (0 given)\n" + usage("roam", roam))
        let word = try hotcold(["roam", "far"])
        #expect(word.stderr.hasPrefix("hotcold roam: \"far\" is not a distance: write a number with m or km, such as 850m, 1.2km or 10km\n"))
    }

    @Test("coordinates say what is wrong with them, and hunt takes --target as replay does")
    func coordinates() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let swapped = try hotcold(["add", "Camp", "--at", "153.1,-30.2", "--db", dir.path("x.sqlite")])
        #expect(swapped.status == 64)
        #expect(swapped.stderr.hasPrefix("hotcold add: "), "\(swapped.stderr)")
        #expect(swapped.stderr.contains("latitude 153.1 is outside ±90 (swapped? write LAT,LON: -30.2,153.1)"), "\(swapped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.sqlite")))
        let huntSwapped = try hotcold(["hunt", "--target", "153.1,-30.2,Banana"])
        #expect(huntSwapped.status == 64)
        #expect(huntSwapped.stderr.hasPrefix("hotcold hunt: latitude 153.1 is outside ±90 (swapped? write LAT,LON: -30.2,153.1)\n"))
        let stars = try hotcold(["rate", banana, "-1"])
        #expect(stars.status == 64)
        #expect(stars.stderr == "hotcold rate: STARS is a whole number from 0 to 5; -1 is not.\n"
                + usage("rate", "[--db <PATH>] [--json] [--socket <PATH>] <id> <stars>"))

        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        for args in [["--target", "-30.2748,153.1338,Big Banana"], ["--target=-30.2748,153.1338"], ["-30.2748,153.1338"]] {
            let r = try hotcold(["hunt", "--socket", daemon.socketPath] + args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout == "hotcoldd now hunts 1 target.\n", "\(args): \(r.stdout)")
        }
        let two = try hotcold(["hunt", "--socket", daemon.socketPath, "--target", "-30.27,153.13", banana])
        #expect(two.stdout == "hotcoldd now hunts 2 targets.\n", "\(two.stdout)\(two.stderr)")
    }

    @Test("a Big Thing cannot be deleted, and says so")
    func deletingABigThing() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let r = try hotcold(["delete", banana, "--db", dir.path("x.sqlite")])
        #expect(r.status == 65)
        #expect(r.stderr.hasSuffix("hotcold delete: Big Banana (\(banana)) is a Big Thing; only your own custom locations can be deleted\n"),
                "\(r.stderr)")
    }

    @Test("--json works on every store command that changes something, and export refuses it")
    func jsonEverywhere() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let db = ["--db", dir.path("x.sqlite"), "--json"]
        func object(_ args: [String]) throws -> [String: Any] {
            let r = try hotcold(args + db)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(args): \(r.stdout)")
        }
        #expect(try object(["fav", banana])["favourite"] as? Bool == true)
        #expect(try object(["unfav", banana])["favourite"] as? Bool == false)
        #expect(try object(["seen", banana])["place_id"] as? String == banana)
        #expect(try object(["unseen", banana])["visits_removed"] as? Int == 1)
        #expect(try object(["rate", banana, "4"])["stars"] as? Int == 4)
        #expect(try object(["note", banana, "tall"])["text"] as? String == "tall")
        let added = try object(["add", "Camp", "--at=-30.1,153.1"])
        let id = try #require(added["id"] as? String)
        #expect(try object(["rename", id, "Base"])["name"] as? String == "Base")
        #expect(try object(["observe", "bird", "Magpie", "--at=-30.1,153.1"])["title"] as? String == "Magpie")
        #expect(try object(["delete", id])["id"] as? String == id)
        let export = try hotcold(["export", "--format", "gpx"] + db)
        #expect(export.status == 64)
        #expect(export.stderr.hasPrefix("hotcold export: --json does not apply: export writes --format gpx or geojson\n"))
    }

    @Test("files: empty, a web page, a GPX holding a track: each said in our words, through the daemon and with --db")
    func fileMistakes() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let empty = dir.path("empty.gpx"), page = dir.path("page.gpx"), track = dir.path("track.gpx")
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        try "<!DOCTYPE html>\n<html><head><title>Geocache</title></head><body>GC2T9RW</body></html>\n"
            .write(toFile: page, atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="-30.27" lon="153.13"><time>2024-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.write(toFile: track, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        for via in [["--socket", daemon.socketPath], ["--db", dir.path("x.sqlite")]] {
            let e = try hotcold(["import", empty] + via)
            #expect(e.status == 65)
            #expect(e.stderr.hasSuffix("hotcold import: import file \(empty): the file is empty\n"), "\(e.stderr)")
            let p = try hotcold(["import", page] + via)
            #expect(p.status == 65)
            #expect(p.stderr.hasSuffix("hotcold import: import file \(page): this is an HTML page (a web page saved from a browser?), "
                                       + "not GPX, LOC or JSON; download the file itself\n"), "\(p.stderr)")
            let t = try hotcold(["import", track] + via)
            #expect(t.status == 65)
            #expect(t.stderr.hasSuffix("hotcold import: import file \(track): this GPX file holds a track, no waypoints: "
                                       + "replay it with hotcold replay FILE --target LAT,LON\n"), "\(t.stderr)")
            // Issue 31: the demo drive (NMEA) and a text file named .gpx are said for what they are.
            let nmea = try hotcold(["import", TestData.repo("demo/coffs-harbour-drive.nmea").path] + via)
            #expect(nmea.status == 65 && nmea.stderr.contains("this is an NMEA recording (a drive)")
                    && nmea.stderr.contains("hotcold replay FILE"), "\(nmea.stderr)")
            let text = dir.path("notes.gpx")
            try "not a gpx file at all\n".write(toFile: text, atomically: true, encoding: .utf8)
            let notXML = try hotcold(["import", text] + via)
            #expect(notXML.status == 65 && notXML.stderr.contains("neither XML (GPX, LOC) nor JSON")
                    && !notXML.stderr.contains("expected a value"), "\(notXML.stderr)")
            let folder = try hotcold(["import", dir.url.path] + via)
            #expect(folder.status == 66)
            #expect(folder.stderr.hasSuffix("hotcold import: import file \(dir.url.path): is a directory, not a file\n"), "\(folder.stderr)")
            for r in [e, p, t, folder] {
                #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("could not be completed"))
            }
        }
    }

    @Test("--version on every binary")
    func versions() throws {
        for b in ["hotcold", "hotcoldd", "hotcold-sync", "hotcold-mqtt"] {
            let r = try Subprocess.run(Binaries.url(b), ["--version"])
            #expect(r.status == 0, "\(b): \(r.stderr)")
            #expect(r.stdout.range(of: #"^\#(b) \d+\.\d+\.\d+ \(protocol \d+\.\d+\)\n$"#, options: .regularExpression) != nil, "\(b): \(r.stdout)")
        }
    }

    @Test("a configuration file that is missing or a folder is said in our words by every binary, never Foundation's")
    func configFileMistakes() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let missing = dir.path("missing.toml")
        for b in ["hotcoldd", "hotcold-sync", "hotcold-mqtt"] {
            let m = try Subprocess.run(Binaries.url(b), ["--config", missing])
            #expect(m.status == 78, "\(b): \(m.stderr)")
            #expect(m.stderr == "\(b): \(missing): cannot read the file: no such file\n", "\(b): \(m.stderr)")
            let d = try Subprocess.run(Binaries.url(b), ["--config", dir.url.path])
            #expect(d.status == 78, "\(b): \(d.stderr)")
            #expect(d.stderr == "\(b): \(dir.url.path): cannot read the file: it is a directory\n", "\(b): \(d.stderr)")
        }
        let replay = try hotcold(["replay", TestData.repo("demo/coffs-harbour-drive.nmea").path, "--target=-30.27,153.13", "--config", missing])
        #expect(replay.stderr == "hotcold replay: \(missing): cannot read the file: no such file\n", "\(replay.stderr)")
    }

    @Test("a socket path that names a directory or a plain file says so, not 'Connection refused'")
    func socketPathThatIsNoSocket() throws {
        let dir = try TemporaryDirectory("hotcold-not-a-socket")
        defer { dir.remove() }
        let r = try Subprocess.run(Binaries.url("hotcold"), ["status"], environment: ["HOTCOLD_SOCKET": dir.url.path])
        #expect(r.status == 69 && r.stderr.contains("that is a directory, not hotcoldd's socket"), "\(r.stderr)")
        let file = dir.path("plain")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let f = try Subprocess.run(Binaries.url("hotcold"), ["status", "--socket", file])
        #expect(f.stderr.contains("that is a file, not a socket") && !f.stderr.contains("Connection refused"), "\(f.stderr)")
    }

    @Test("a refusal from the daemon reads as a sentence, without the wire's command and field names")
    func refusalsReadAsSentences() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let r = try Subprocess.run(Binaries.url("hotcold"), ["hunt", "GC9NOPE", "--socket", daemon.socketPath])
        #expect(r.status != 0)
        #expect(r.stderr.contains("GC9NOPE") && r.stderr.contains("the daemon refused it"), "\(r.stderr)")
        #expect(!r.stderr.contains("targets[0]") && !r.stderr.contains("hotcoldd: hunt:"), "\(r.stderr)")
    }

    @Test("a missing photo and a web page given to replay are said in our words")
    func photoAndReplayFiles() throws {
        let dir = try TemporaryDirectory("hotcold-mistakes")
        defer { dir.remove() }
        let photo = dir.path("wombat.jpg")
        let r = try hotcold(["submit", "Big Wombat", "--at=-30.1,153.1", "--photo", photo, "--db", dir.path("x.sqlite")])
        #expect(r.status == 66)
        #expect(r.stderr.hasSuffix("hotcold submit: Cannot read the photo \(photo): no such file. Nothing was queued.\n"), "\(r.stderr)")
        // A relative path is named as typed, the reason whole (issue 31: "er/nope.jpg: no such file").
        let relative = try Subprocess.run(Binaries.url("hotcold"), ["submit", "Big Wombat", "--at=-30.1,153.1", "--photo", "nope.jpg",
                                                                    "--db", dir.path("x.sqlite")], currentDirectory: dir.url)
        #expect(relative.stderr.hasSuffix("hotcold submit: Cannot read the photo nope.jpg: no such file. Nothing was queued.\n"), "\(relative.stderr)")
        let folder = try hotcold(["submit", "Big Wombat", "--at=-30.1,153.1", "--photo", dir.url.path, "--db", dir.path("x.sqlite")])
        #expect(folder.stderr.hasSuffix("hotcold submit: Cannot read the photo \(dir.url.path): is a directory, not a file. Nothing was queued.\n"), "\(folder.stderr)")
        let page = dir.path("track.gpx")
        try "<!DOCTYPE html><html><body>a track</body></html>".write(toFile: page, atomically: true, encoding: .utf8)
        let replay = try hotcold(["replay", page, "--target=-30.27,153.13"])
        #expect(replay.status == 65)
        #expect(replay.stderr == "hotcold replay: \(page): this is an HTML page (a web page saved from a browser?), not a GPS track; "
                + "download the file itself\n", "\(replay.stderr)")
    }
}
