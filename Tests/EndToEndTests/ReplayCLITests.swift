import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `hotcold replay` as a user runs it: the built binary, real recordings, real error cases.
@Suite(.offCooperativePool) struct ReplayCLITests {
    func replay(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(Binaries.url("hotcold"), ["replay"] + args)
    }

    var bike: String { TestData.url("tracks/gpsbabel-lezyne_super_gps-garmin_fit-sample-bad-endian.gpx").path }
    var bikeTargets: String { TestData.repo("Tests/Golden/melbourne-bike.targets.json").path }

    // MARK: output

    @Test func geocacheGPXServesAsTargets() throws {
        // A drive past a cache: put the cache on the Delft drive's route by hunting the one
        // cache file against a track, and check the cache is what the events are about.
        let r = try replay([TestData.url("tracks/gpsbabel-sbn-v13.gpx").path,
                            "--targets", TestData.url("geocaches/cachebox3-GC2T9RW.gpx").path])
        #expect(r.status == 0, "\(r.stderr)")
        let first = r.stdout.split(separator: "\n").first { $0.contains("\"PROXIMITY\"") }
        #expect(first?.contains("\"id\":\"GC2T9RW\"") == true, "\(r.stdout.prefix(400))")
        #expect(first?.contains("\"kind\":\"geocache\"") == true)
        let bad = try replay([TestData.url("tracks/gpsbabel-sbn-v13.gpx").path,
                              "--targets", TestData.url("tracks/gpsbabel-igc1.gpx").path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("gpsbabel-igc1.gpx"), "\(bad.stderr)")
    }

    @Test func sameInputGivesByteIdenticalOutput() throws {
        let args = [TestData.url("gpsd-logs/replay-gpsd-3.22/quectel-eg25-g.log.tpv.jsonl").path,
                    "--targets", TestData.repo("Tests/Golden/quectel-eg25-g.targets.json").path]
        let a = try replay(args), b = try replay(args)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)")
        #expect(!a.stdout.isEmpty)
        #expect(a.stdout == b.stdout)
        #expect(a.stderr == b.stderr)
        let demo = [TestData.repo("demo/coffs-harbour-drive.nmea").path,
                    "--targets", TestData.repo("data/bigthings.json").path, "--roam", "10km"]
        let c = try replay(demo), d = try replay(demo)
        #expect(c.status == 0 && c.stdout == d.stdout && c.stdout.count > 1000)
    }

    @Test func textFormatIsReadable() throws {
        let r = try replay([bike, "--targets", bikeTargets, "--format", "text"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        // Every line starts with an ISO time and none is JSON.
        let iso = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z  /#
        for line in lines {
            #expect(line.prefixMatch(of: iso) != nil, "\(line)")
            #expect(!line.contains("{"), "\(line)")
        }
        // Distances read as people say them: "850 m", "1.2 km", "12 km" (no "1234.567").
        let metres = #/: \d{1,3} m [NSEW]{1,3}, /#
        let kilometres = #/: \d\.\d km [NSEW]{1,3}, /#
        #expect(lines.contains { $0.firstMatch(of: metres) != nil }, "\(r.stdout)")
        #expect(lines.contains { $0.firstMatch(of: kilometres) != nil }, "\(r.stdout)")
        #expect(lines.contains { $0.contains("ARRIVED at On the route (") })
        #expect(!r.stdout.contains(".000 m") && r.stdout.firstMatch(of: #/\d{4,} m/#) == nil)
        // Whole kilometres beyond 10 km: a target 12 km away.
        let far = try replay([bike, "--target", "-37.61,144.96,Twelve", "--format", "text"])
        #expect(far.stdout.firstMatch(of: #/Twelve: 1\d km [NSEW]{1,3}, freezing/#) != nil, "\(far.stdout)")
    }

    @Test func skippedLinesWarnOnStderrAndOnlyEventsGoToStdout() throws {
        for log in ["gpsd-logs/firefly-II.log", "gpsd-logs/gp-320fw-2019-04-07-coldboot.log"] {
            let path = TestData.url(log).path
            let r = try replay([path, "--target", "0,0,Null Island"])
            #expect(r.status == 0, "\(log): \(r.stderr)")
            // A count of skipped lines, naming the file, on stderr.
            #expect(r.stderr.contains(path), "\(log): \(r.stderr)")
            #expect(r.stderr.firstMatch(of: #/skipped \d+/#) != nil || r.stderr.firstMatch(of: #/\d+ (bad|skipped|lines)/#) != nil,
                    "\(log): \(r.stderr)")
            // stdout holds JSON event lines and nothing else.
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(!lines.isEmpty, "\(log): no events")
            for line in lines {
                #expect(line.hasPrefix("{\"class\":"), "\(log): \(line)")
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(log): \(line)")
            }
            #expect(r.stdout.hasSuffix("\n"))
        }
    }

    // MARK: unreadable tracks

    @Test func unreadableTracksNameTheFileAndWhy() throws {
        let dir = try TemporaryDirectory("hotcold-replay")
        defer { dir.remove() }
        let garbage = dir.path("garbage.bin")
        // A fixed byte pattern with NULs and high bytes: no text format at all.
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ ($0 >> 3)) }).write(to: URL(fileURLWithPath: garbage))
        let jpeg = dir.path("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
                 + [UInt8](repeating: 0x80, count: 500)).write(to: URL(fileURLWithPath: jpeg))
        let empty = dir.path("empty.nmea")
        try Data().write(to: URL(fileURLWithPath: empty))
        let missing = dir.path("no-such-track.nmea")
        let sirf = TestData.url("gpsd-logs/bu303-moving.log").path

        let cases: [(String, [String])] = [
            (missing, ["No such file"]),
            (dir.url.path, ["directory"]),
            (garbage, ["binary"]),
            (jpeg, ["JPEG"]),
            (empty, ["empty"]),
            (sirf, ["SiRF", "gpsd"]),
        ]
        for (path, words) in cases {
            let r = try replay([path, "--target", "-33.86,151.21"])
            #expect(r.status != 0, "\(path): exit 0")
            #expect(r.stdout.isEmpty, "\(path): \(r.stdout)")
            #expect(r.stderr.contains(path), "\(path): message does not name the file: \(r.stderr)")
            for w in words {
                #expect(r.stderr.localizedCaseInsensitiveContains(w), "\(path): no \"\(w)\" in: \(r.stderr)")
            }
            #expect(r.stderr.split(separator: "\n").count <= 2, "\(path): \(r.stderr)")
        }
    }

    // MARK: bad arguments

    @Test func badTargetsAndRoamAreRefused() throws {
        for bad in ["91,0", "abc", "-33.9", "0,181", "-33.9,151.2,", "nan,0"] {
            let r = try replay([bike, "--target", bad])
            if bad == "-33.9,151.2," {
                // An empty name is allowed: the target is called "Target 1".
                #expect(r.status == 0, "\(bad): \(r.stderr)")
                continue
            }
            #expect(r.status != 0, "--target \(bad) accepted")
            #expect(r.stderr.contains(bad) && r.stderr.contains("LAT,LON"), "\(bad): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        for bad in ["far", "-3km", "0", "10 parsecs"] {
            let r = try replay([bike, "--target", "-37.72,144.96", "--roam", bad])
            #expect(r.status != 0, "--roam \(bad) accepted")
            #expect(r.stderr.contains("--roam") && r.stderr.contains(bad), "\(bad): \(r.stderr)")
        }
        // Southern latitudes start with "-": the README's own example must parse.
        let south = try replay([bike, "--target", "-37.7205,144.9649,Start", "--format", "text"])
        #expect(south.status == 0 && south.stdout.contains("Start: "), "\(south.stderr)")
        let none = try replay([bike])
        #expect(none.status != 0 && none.stderr.contains("--target"))
        let format = try replay([bike, "--target", "-37.72,144.96", "--format", "xml"])
        #expect(format.status != 0 && format.stderr.contains("xml"))
    }

    @Test func badTargetsFilesNameTheRowAndField() throws {
        let dir = try TemporaryDirectory("hotcold-targets")
        defer { dir.remove() }
        func write(_ name: String, _ text: String) throws -> String {
            let p = dir.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: p))
            return p
        }
        let cases: [(String, String, [String])] = [
            ("missing-field.json", #"[{"id":"a","name":"A","lat":1,"lon":2},{"id":"b","name":"B","lat":1}]"#, ["row 2", "lon"]),
            ("wrong-type.json", #"[{"id":"a","name":"A","lat":"north","lon":2}]"#, ["row 1", "lat"]),
            ("out-of-range.json", #"[{"id":"a","name":"A","lat":1,"lon":2},{"id":"b","name":"Bad","lat":95,"lon":2}]"#, ["row 2", "Bad", "95"]),
            ("not-json.json", "[{\"id\":\"a\",", ["not valid JSON"]),
        ]
        for (name, text, words) in cases {
            let path = try write(name, text)
            let r = try replay([bike, "--targets", path])
            #expect(r.status != 0, "\(name) accepted")
            #expect(r.stderr.contains(path), "\(name): \(r.stderr)")
            for w in words { #expect(r.stderr.contains(w), "\(name): no \"\(w)\" in: \(r.stderr)") }
            #expect(r.stdout.isEmpty)
        }
        let missing = try replay([bike, "--targets", dir.path("nope.json")])
        #expect(missing.status != 0 && missing.stderr.contains("nope.json"))
    }

    @Test func configWithABadKeyExits78NamingKeyAndLine() throws {
        let dir = try TemporaryDirectory("hotcold-config")
        defer { dir.remove() }
        let path = dir.path("bad.toml")
        try Data("# engine tuning\n[engine]\n\narrival_radius = \"100m\"\nwobble_factor = 3\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let r = try replay([bike, "--targets", bikeTargets, "--config", path])
        #expect(r.status == 78, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("wobble_factor") && r.stderr.contains("5"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        // The documented default file is accepted and changes nothing.
        let plain = try replay([bike, "--targets", bikeTargets])
        let withDefaults = try replay([bike, "--targets", bikeTargets, "--config", TestData.repo("config/hotcoldd.toml").path])
        #expect(withDefaults.status == 0, "\(withDefaults.stderr)")
        #expect(withDefaults.stdout == plain.stdout)
    }

    // MARK: the demo

    @Test func demoDriveArrivesAtTheBigBananaAndTheBigGoldenDog() throws {
        let r = try replay([TestData.repo("demo/coffs-harbour-drive.nmea").path,
                            "--targets", TestData.repo("data/bigthings.json").path, "--roam", "10km"])
        #expect(r.status == 0, "\(r.stderr)")
        var arrived: [String] = [], departed: [String] = []
        for line in r.stdout.split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = (o["target"] as? [String: Any])?["name"] as? String ?? ""
            switch o["class"] as? String {
            case "ARRIVED": arrived.append(name)
            case "DEPARTED": departed.append(name)
            default: break
            }
        }
        for name in ["Big Banana", "The Big Golden Dog"] {
            #expect(arrived.filter { $0 == name }.count == 1, "ARRIVED: \(arrived)")
            #expect(departed.filter { $0 == name }.count == 1, "DEPARTED: \(departed)")
        }
        #expect(Set(arrived) == Set(departed), "arrived \(arrived), departed \(departed)")
        let text = try replay([TestData.repo("demo/coffs-harbour-drive.nmea").path,
                               "--targets", TestData.repo("data/bigthings.json").path, "--roam", "10km", "--format", "text"])
        #expect(text.stdout.contains("ARRIVED at Big Banana ("))
    }
}
