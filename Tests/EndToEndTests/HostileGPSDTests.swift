import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `hotcoldd`, connected through libgps to a scripted gpsd that lies: negative, NaN,
/// infinite and absurd error figures, impossible positions and modes, a 6,000 km jump, times
/// from 1900 to 2200, and floods of junk. The daemon must stay up, keep answering `status`,
/// emit only schema-valid events without `nan`/`inf`, and still see the true fixes.
@Suite(.offCooperativePool, .serialized) struct HostileGPSDTests {
    /// A drive due east at 10 m/s from near Coffs Harbour; the target is on the road 300 m on.
    static let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
    static let lastSecond = 45

    /// One true fix of the drive, with `extra` fields (which may be hostile).
    static func truth(_ second: Int, _ extra: KeyValuePairs<String, FakeGPSD.Value> = [:]) -> String {
        let p = track.point(second: second)
        return FakeGPSD.tpv(time: p.time, latitude: .number(p.latitude), longitude: .number(p.longitude), extra)
    }

    @Test func negativeNaNAndHugeErrorFiguresSpeedAndTrackAreUnknown() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let hostile: [KeyValuePairs<String, FakeGPSD.Value>] = [
            ["eph": -5, "epx": -1, "epy": -1, "speed": -3, "track": -90],
            ["eph": .raw("nan"), "epx": .raw("NaN"), "epy": .raw("nan"), "speed": .raw("nan"), "track": .raw("nan")],
            ["eph": .raw("1e999"), "epx": .raw("-1e999"), "epy": .raw("1e999"), "speed": .raw("1e999"), "track": .raw("1e999")],
            ["eph": 1e300, "epx": 1e300, "epy": 1e300, "speed": 1e300, "track": 1e300],
            ["eph": -1e300, "epx": 4e7, "epy": -0.5, "speed": 600, "track": 361],
        ]
        var accepted = 0
        for s in 0...Self.lastSecond {
            if s % 5 == 0 {
                // SKY brings DOP and satellites; these are absurd too.
                try rig.send(FakeGPSD.line(class: "SKY", ["hdop": s % 10 == 0 ? -3 : 1e300, "uSat": -5,
                                                          "satellites": .raw("[]")]), reports: 0)
            }
            // A line with bare nan tokens is not JSON: the line guard refuses it before libgps
            // (whose parser hangs on some malformed lines), so it is no report at all.
            let line = Self.truth(s, hostile[s % hostile.count])
            try rig.send(line, reports: FakeGPSD.isJSON(line) ? 1 : 0)
            if FakeGPSD.isJSON(line) { accepted += 1 }
        }
        let status = try rig.status()
        let lastFix = try #require((status["gps"] as? [String: Any])?["last_fix"] as? [String: Any])
        #expect(lastFix["accuracy_m"] == nil && lastFix["speed_mps"] == nil, "\(lastFix)")
        #expect(accepted < Self.lastSecond + 1, "some lines were not JSON")
        #expect(rig.counter(status, "fixes_accepted") == accepted)
        let events = try rig.finish()
        let proximity = events.filter { $0.class == "PROXIMITY" }
        #expect(!proximity.isEmpty)
        #expect(proximity.allSatisfy { $0.object["accuracy_m"] == nil && $0.object["speed_mps"] == nil })
        #expect(events.contains { $0.class == "ARRIVED" }, "\(events.map(\.line))")
    }

    @Test func impossiblePositionsAndModesAreNoFix() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let far = Self.track.point(second: 0)
        let bad: [(Double, FakeGPSD.Value, FakeGPSD.Value, FakeGPSD.Value)] = [
            (0.5, 91, .number(far.longitude), 3),
            (0.5, .number(far.latitude), 200, 3),
            (0.5, .raw("nan"), .number(far.longitude), 3),
            (0.5, .number(far.latitude), .raw("1e999"), 2),
            (0.5, -90.5, -180.5, 3),
            (0.5, 10, 10, 7),
            (0.5, 10, 10, -3),
            (0.5, 10, 10, .raw("99999999999999")),
        ]
        var reports = 0
        for s in 0...Self.lastSecond {
            try rig.send(Self.truth(s), reports: 1)
            let (offset, lat, lon, mode) = bad[s % bad.count]
            let t = Self.track.point(second: s).time.addingTimeInterval(offset)
            let line = FakeGPSD.tpv(time: t, latitude: lat, longitude: lon, mode: mode)
            let json = FakeGPSD.isJSON(line)
            try rig.send(line, reports: json ? 1 : 0)
            if json { reports += 1 }
        }
        let status = try rig.status()
        #expect(rig.counter(status, "fixes") == Self.lastSecond + 1 + reports)
        #expect(rig.counter(status, "fixes_accepted") == Self.lastSecond + 1)
        #expect(rig.counter(status, "outliers") == 0)
        let events = try rig.finish()
        let distances = events.compactMap { $0.object["distance_m"] as? Double }
        #expect(!distances.isEmpty && distances.allSatisfy { $0 < 1000 }, "\(distances)")
        #expect(events.contains { $0.class == "ARRIVED" }, "\(events.map(\.line))")
    }

    /// Needs the engine's speed rule (> 300 m/s between two fixes is an outlier, whatever the
    /// stated accuracy): the second jump claims a 10,000 km error, which would excuse it otherwise.
    @Test func aJumpNoVehicleCanMakeIsAnOutlier() throws {
        let rig = try Rig()
        defer { rig.stop() }
        for s in 0...Self.lastSecond {
            let here = Self.track.point(second: s)
            switch s {
            case 12:   // 6,000 km north, one second after the last fix, no stated accuracy
                try rig.send(FakeGPSD.tpv(time: here.time, latitude: .number(here.latitude + 54),
                                          longitude: .number(here.longitude)), reports: 1)
            case 13:   // the same place again, now claiming a 10,000 km error (more than the jump)
                try rig.send(FakeGPSD.tpv(time: here.time, latitude: .number(here.latitude + 54),
                                          longitude: .number(here.longitude), ["eph": 1e7]), reports: 1)
            default:
                try rig.send(Self.truth(s), reports: 1)
            }
        }
        let status = try rig.status()
        #expect(rig.counter(status, "outliers") == 2)
        #expect(rig.counter(status, "fixes_accepted") == Self.lastSecond - 1)
        let events = try rig.finish()
        let distances = events.compactMap { $0.object["distance_m"] as? Double }
        #expect(!distances.isEmpty && distances.allSatisfy { $0 < 1000 }, "\(distances)")
        #expect(events.contains { $0.class == "ARRIVED" }, "\(events.map(\.line))")
    }

    @Test
    func farFutureAndFarPastTimesDoNotStopTheTrueFixes() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let at10 = Self.track.point(second: 10)
        func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }
        for s in 0...Self.lastSecond {
            if s == 10 {
                // Inside the GPS time range but wrong: the engine sees them and must recover.
                for t in [at("2099-06-01T00:00:00Z"), at("1985-01-01T00:00:00Z")] {
                    try rig.send(FakeGPSD.tpv(time: t, latitude: .number(at10.latitude),
                                              longitude: .number(at10.longitude)), reports: 1)
                }
                // Not GPS times at all: untimed at the edge.
                for t in [at("2200-01-01T00:00:00Z"), at("1900-01-01T00:00:00Z")] {
                    try rig.send(FakeGPSD.tpv(time: t, latitude: .number(at10.latitude),
                                              longitude: .number(at10.longitude)), reports: 1)
                }
                for raw in [#""garbage""#, "1e300", #""99999-01-01T00:00:00.000Z""#, #""2024-13-45T99:99:99.999Z""#] {
                    try rig.send(#"{"class":"TPV","mode":3,"time":"# + raw
                                 + #","lat":\#(at10.latitude),"lon":\#(at10.longitude)}"#, reports: 1)
                }
            }
            try rig.send(Self.truth(s), reports: 1)
        }
        let status = try rig.status()
        #expect(rig.counter(status, "fixes_untimed") >= 5, "\(status["counters"] ?? "")")
        let events = try rig.finish()
        let arrived = events.filter { $0.class == "ARRIVED" }
        #expect(arrived.count == 1, "\(status["counters"] ?? "") \(events.map(\.line))")
        #expect((arrived.first?.object["time"] as? String)?.hasPrefix("2025-01-01T00:00:") == true)
        // The last events are on the true timeline again.
        let last = try #require(events.last { $0.class == "PROXIMITY" || $0.class == "ARRIVED" })
        #expect((last.object["time"] as? String)?.hasPrefix("2025-") == true, "\(last.line)")
    }

    @Test func aFloodOfJunkLinesIsIgnored() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let junk: [String] = [
            "not json at all",
            "{", "}", "[]", "null", "\"TPV\"", "{\"class\":\"TPV\"",
            "{\"class\":\"NOSUCH\",\"x\":1}",
            "{\"class\":\"SKY\",\"satellites\":[" + String(repeating: "{\"PRN\":1,\"used\":true},", count: 300) + "{}]}",
            "{\"class\":\"DEVICE\",\"path\":\"" + String(repeating: "d", count: 2000) + "\"}",
            String(repeating: "[", count: 5000),
            String(repeating: "x", count: 20_000),
            "{\"class\":\"ERROR\",\"message\":\"" + String(repeating: "e", count: 500) + "\"}",
        ]
        let bytes: [[UInt8]] = [[0, 1, 2, 0xFF, 0xFE, 10], [0xC3, 0x28, 0xA0, 0xA1, 10], Array(repeating: 0x7B, count: 3000) + [10]]
        for s in 0...Self.lastSecond {
            for (i, j) in junk.enumerated() where (i + s) % 3 == 0 { try rig.send(j, reports: nil) }
            for b in bytes { try rig.gpsd.send(bytes: b) }
            try rig.send(Self.truth(s), reports: 1)
        }
        let status = try rig.status()
        #expect(rig.counter(status, "fixes_accepted") == Self.lastSecond + 1)
        #expect((status["gps"] as? [String: Any])?["link"] as? String == "connected")
        let events = try rig.finish()
        #expect(!events.contains { $0.class == "GPS" && $0.object["state"] as? String == "lost" })
        #expect(events.contains { $0.class == "ARRIVED" }, "\(events.map(\.line))")
    }
}

/// A fake gpsd, the real daemon hunting one target on the drive, a watcher and a control client.
final class Rig {
    struct EventLine {
        let line: String
        let object: [String: Any]
        var `class`: String { object["class"] as? String ?? "" }
    }

    let gpsd: FakeGPSD
    let daemon: DaemonProcess
    let watcher: LineClient
    let control: LineClient
    /// TPV reports (`fixes` + `fixes_untimed`) the daemon has counted so far.
    private var reports = 0

    init() throws {
        gpsd = try FakeGPSD()
        let p = HostileGPSDTests.track.point(second: 30)
        daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)",
                                               "--target=\(p.latitude),\(p.longitude),Roadside Thing"])
        watcher = try daemon.connect()
        _ = try watcher.read(class: "VERSION")
        try watcher.send(#"{"cmd":"watch"}"#)
        _ = try watcher.read(class: "WATCH")
        control = try daemon.connect()
        _ = try control.read(class: "VERSION")
        try gpsd.waitForWatcher()
        try control.waitUntilGPSDConnected()
    }

    func stop() {
        daemon.stop()
        gpsd.stop()
    }

    func status() throws -> [String: Any] {
        try control.send(#"{"cmd":"status"}"#)
        return try control.read(class: "STATUS")
    }

    func counter(_ status: [String: Any], _ name: String) -> Int {
        (status["counters"] as? [String: Any])?[name] as? Int ?? -1
    }

    /// Sends one line; when `reports` is given, waits (asking `status`, which must keep
    /// answering) until the daemon has counted that many more TPV reports.
    func send(_ line: String, reports added: Int?) throws {
        try gpsd.send(line)
        guard let added else { return }
        reports += added
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            let s = try status()
            let seen = counter(s, "fixes") + counter(s, "fixes_untimed")
            if seen >= reports {
                #expect(seen == reports, "the daemon counted \(seen) reports, \(reports) sent; last line: \(line)")
                reports = seen
                return
            }
            guard Date() < deadline, daemon.process.isRunning else {
                throw TestFailure("report \(reports) not counted (saw \(seen)) after: \(line)\n\(daemon.stderr)")
            }
            usleep(5_000)
        }
    }

    /// Drains the watcher, then checks every event on the socket and in the log: valid JSON,
    /// valid per schema/event.schema.json, no `nan` or `inf`; and the daemon is still running.
    func finish() throws -> [EventLine] {
        var lines: [String] = []
        while let l = watcher.nextLine(timeout: .milliseconds(500)) { lines.append(l) }
        #expect(daemon.process.isRunning, "hotcoldd died: \(daemon.stderr)")
        let log = daemon.logLines
        #expect(!log.isEmpty)
        for line in lines + log {
            let lower = line.lowercased()
            #expect(!lower.contains("nan") && !lower.contains("inf"), "\(line)")
        }
        try Self.validate(lines + log)
        return lines.compactMap { l in LineClient.object(l).map { EventLine(line: l, object: $0) } }
    }

    /// Validates event lines against the schema with Python's jsonschema (a real validator).
    static func validate(_ lines: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("events.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, jsonschema
            v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            bad = 0
            for n, line in enumerate(open(sys.argv[2]), 1):
                obj = json.loads(line, parse_constant=lambda c: sys.exit(f"line {n}: {c}"))
                for err in v.iter_errors(obj):
                    print(f"line {n}: {err.message}: {line.strip()}"); bad += 1
            sys.exit(1 if bad else 0)
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                   ["python3", "-c", script, TestData.repo("schema/event.schema.json").path, path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }
}
