import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sequence numbers from the real daemon: on the socket and in the log alike, increasing
/// across a restart even after the log was rotated away, and `watch` with `since` picking up
/// across that restart from the rotated file.
@Suite(.offCooperativePool, .serialized) struct EventSequenceDaemonTests {
    typealias F = VisitFixtures

    func run(_ gpsd: GPSDHarness, log: String, db: String, start: Date, client body: (DaemonProcess, LineClient) throws -> Void) throws -> [[String: Any]] {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--log", log, "--db", db,
                                                   "--target", "\(F.banana.lat),\(F.banana.lon),Banana"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        try c.send(#"{"cmd":"watch"}"#)
        _ = try c.read(class: "WATCH")
        try c.waitUntilGPSDConnected()
        let track = SyntheticTrack(start: (F.banana.lat - 3000 / 111_320, F.banana.lon), startTime: start, bearing: 0, speed: 30)
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.02)
        feeder.start()
        let events = F.events(c, timeout: 30) { $0["class"] as? String == "ARRIVED" }
        feeder.stop()
        try body(daemon, c)
        return events
    }

    @Test func numbersIncreaseAcrossARestartAfterTheLogWasRotatedAway() throws {
        let dir = try TemporaryDirectory("seq-daemon"); defer { dir.remove() }
        let log = dir.path("events.jsonl"), db = dir.path("hc.sqlite")
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }

        let first = try run(gpsd, log: log, db: db, start: Date(timeIntervalSince1970: 1_735_689_600)) { _, _ in }
        let firstSeqs = first.compactMap { $0["seq"] as? Int }
        #expect(firstSeqs.count == first.count && firstSeqs.count > 3)
        #expect(firstSeqs == firstSeqs.sorted() && Set(firstSeqs).count == firstSeqs.count)
        // The log holds the same numbered lines the socket sent.
        let logged = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { LineClient.object(String($0))?["seq"] as? Int }
        #expect(Set(firstSeqs).isSubset(of: Set(logged)))

        // logrotate moved the log away and the rotated copy is gone too.
        #expect(unlink(log) == 0)
        let second = try run(gpsd, log: log, db: db, start: Date(timeIntervalSince1970: 1_735_693_200)) { _, _ in }
        let secondSeqs = second.compactMap { $0["seq"] as? Int }
        #expect(secondSeqs.first.map { $0 > firstSeqs.max()! } == true, "\(firstSeqs.suffix(3)) then \(secondSeqs.prefix(3))")
    }

    @Test func watchSinceResumesAcrossARestartFromTheRotatedLog() throws {
        let dir = try TemporaryDirectory("seq-since"); defer { dir.remove() }
        let log = dir.path("events.jsonl"), db = dir.path("hc.sqlite")
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }

        let first = try run(gpsd, log: log, db: db, start: Date(timeIntervalSince1970: 1_735_689_600)) { _, _ in }
        let firstSeqs = first.compactMap { $0["seq"] as? Int }
        try #require(firstSeqs.count > 3)
        // A subscriber saw all but the last three events of the first run before it crashed.
        let resumeFrom = firstSeqs[firstSeqs.count - 4]
        #expect(rename(log, log + ".1") == 0)
        _ = try run(gpsd, log: log, db: db, start: Date(timeIntervalSince1970: 1_735_693_200)) { daemon, _ in
            let sub = try daemon.connect()
            _ = try sub.read(class: "VERSION")
            try sub.send(#"{"cmd":"watch","since":\#(resumeFrom)}"#)
            let reply = try sub.read(class: "WATCH")
            #expect(reply["since_gap"] == nil, "\(reply)")
            var replayed: [Int] = []
            for _ in 0..<(reply["replay"] as? Int ?? 0) {
                if let l = try sub.readLine(), let s = LineClient.object(l)?["seq"] as? Int { replayed.append(s) }
            }
            #expect(Array(replayed.prefix(3)) == Array(firstSeqs.suffix(3)), "\(replayed)")
            #expect(replayed == replayed.sorted() && Set(replayed).count == replayed.count)
        }
    }
}
