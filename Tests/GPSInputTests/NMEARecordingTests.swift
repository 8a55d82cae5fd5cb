import Foundation
import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

/// gpsd's regression logs through the NMEA reader, checked against what gpsd 3.22 made of them.
@Suite(.offCooperativePool) struct NMEARecordingTests {
    @Test(arguments: Recordings.nmeaLogs)
    func everyLogReads(_ url: URL) throws {
        let (fixes, stats, format) = try Recordings.readAll(url.path)
        #expect(format == .nmea)
        #expect(stats.fixes == fixes.count)
        #expect(!fixes.isEmpty)
        for fix in fixes {
            // The reader's invariant: below 2D there is no position, at 2D and up a valid one.
            if fix.mode >= .twoD { #expect(fix.coordinate?.isValid == true) } else { #expect(fix.coordinate == nil) }
        }
        // Every log but the simulator demo has real fixes.
        if url.lastPathComponent != "garmin-geko201.log" {
            #expect(fixes.contains { $0.hasPosition })
        } else {
            #expect(!fixes.contains { $0.hasPosition })
        }
    }

    /// Each gpsd TPV with a position has a fix of ours at the same time of day (gpsd 3.22 puts
    /// old logs 1024 weeks late) with the same position, and the last positions agree.
    @Test(arguments: ["haicom-305N.log", "jl-micro-jlt.log", "sl869.log", "bu353s4.log", "nmea-rtk.log",
                      "humminbird-M37.log", "telit-he910.log", "quectel-l76k-nmea.log"])
    func positionsMatchGPSD(_ name: String) throws {
        let ours = try Recordings.readAll(Recordings.log(name)).fixes.filter(\.hasPosition)
        let gpsd = try Recordings.readAll(Recordings.replay(name)).fixes.filter(\.hasPosition)
        #expect(!gpsd.isEmpty)
        // A list per time: humminbird-M37's clock runs through some seconds twice.
        let byTime = Dictionary(grouping: ours.map { (Recordings.timeOfDay($0.time), $0.coordinate!) }, by: \.0)
        for g in gpsd {
            let mine = try #require(byTime[Recordings.timeOfDay(g.time)], "no fix of ours at \(g.time)")
            #expect(mine.contains { abs($0.1.latitude - g.coordinate!.latitude) < 1e-6
                                    && abs($0.1.longitude - g.coordinate!.longitude) < 1e-6 },
                    "no matching position at \(g.time)")
        }
    }

    /// First and last 2D/3D positions agree with gpsd 3.22 (haicom-305N: last only, see below).
    @Test(arguments: ["haicom-305N.log", "jl-micro-jlt.log", "sl869.log", "triton400.log", "humminbird-M37.log"])
    func firstAndLastPositionsMatchGPSD(_ name: String) throws {
        let ours = try Recordings.readAll(Recordings.log(name)).fixes.filter(\.hasPosition)
        let gpsd = try Recordings.readAll(Recordings.replay(name)).fixes.filter(\.hasPosition)
        var pairs = [(try #require(ours.last), try #require(gpsd.last))]
        if name != "haicom-305N.log" { pairs.append((try #require(ours.first), try #require(gpsd.first))) }
        for (mine, theirs) in pairs {
            #expect(Recordings.timeOfDay(mine.time) == Recordings.timeOfDay(theirs.time))
            #expect(abs(mine.coordinate!.latitude - theirs.coordinate!.latitude) < 1e-6)
            #expect(abs(mine.coordinate!.longitude - theirs.coordinate!.longitude) < 1e-6)
        }
    }

    /// haicom-305N opens with void RMCs (and GGA quality 0) holding a stale position
    /// (27°12.6404'S 153°03.1201'E). Those epochs are no-fix reports without a position; the
    /// first real fix is 095304.802 — one epoch before gpsd 3.22's first TPV with a position.
    @Test func voidRMCWithStalePositionIsNotAFix() throws {
        let (fixes, _, _) = try Recordings.readAll(Recordings.log("haicom-305N.log"))
        let first = try #require(fixes.first)
        #expect(first.mode == .noFix)
        #expect(first.coordinate == nil)
        // (The walk ends back at 2712.6404 S, so only the opening epochs can be checked.)
        #expect(fixes.prefix { !$0.hasPosition }.allSatisfy { $0.mode == .noFix && $0.coordinate == nil })
        let firstFix = try #require(fixes.first { $0.hasPosition })
        #expect(ISO8601.format(firstFix.time) == "2007-04-08T09:53:04.802Z")
        #expect(firstFix.mode == .twoD)  // GSA says 2
        #expect(abs(firstFix.coordinate!.latitude - -(27 + 12.6520 / 60)) < 1e-9)
        #expect(fixes.prefix { !$0.hasPosition }.count == 6)
    }

    /// The log's own note: time goes backward 194124 to 194111. The reader passes it on as is.
    @Test func timeGoingBackwardsIsPassedOn() throws {
        let fixes = try Recordings.readAll(Recordings.log("humminbird-M37.log")).fixes
        let steps = zip(fixes, fixes.dropFirst()).filter { $1.time < $0.time }
        #expect(steps.count == 1)
        let step = try #require(steps.first)
        #expect(ISO8601.format(step.0.time) == "2006-09-16T19:41:24.000Z")
        #expect(ISO8601.format(step.1.time) == "2006-09-16T19:41:11.000Z")
    }

    /// ublox-lea-4h opens with four no-fix epochs (void RMC, GGA quality 0); sl869 too.
    @Test func noFixStretches() throws {
        let fixes = try Recordings.readAll(Recordings.log("ublox-lea-4h.log")).fixes
        #expect(fixes.prefix { $0.mode == .noFix }.count == 4)
        #expect(fixes.filter { $0.mode == .noFix }.count == 5)
        #expect(fixes.filter(\.hasPosition).count == 9)
        let sl869 = try Recordings.readAll(Recordings.log("sl869.log")).fixes
        #expect(sl869.filter { $0.mode == .noFix }.count == 7)
    }

    /// firefly-II's GGAs all carry bad checksums; RMC alone still gives the fixes (2D: no altitude).
    @Test func badChecksumsAreCounted() throws {
        let (fixes, stats, _) = try Recordings.readAll(Recordings.log("firefly-II.log"))
        #expect(stats.skipped[.badChecksum] == 23)
        #expect(fixes.count == 23)
        #expect(fixes.allSatisfy { $0.mode == .twoD && $0.altitude == nil })
        let gp = try Recordings.readAll(Recordings.log("gp-320fw-2019-04-07-coldboot.log"))
        #expect(gp.stats.skipped[.badChecksum] == 32)
        #expect(gp.stats.skipped[.truncated] == 4)
        #expect(gp.stats.skipped[.unparsable] == 6)
        #expect(gp.stats.skipSummary == "skipped 42 lines (32 bad checksum, 4 truncated, 6 unparsable)")
        // Dates are as sent: 2019-04-07 before the restart, the receiver's garbage ones after.
        #expect(ISO8601.format(try #require(gp.fixes.first { $0.hasPosition }).time) == "2019-04-07T00:03:43.030Z")
    }

    /// triton400 line 12: `$GPGGA,030130$GPGLL,…` — a GGA cut off by the next sentence.
    @Test func unterminatedSentence() throws {
        let (fixes, stats, _) = try Recordings.readAll(Recordings.log("triton400.log"))
        #expect(stats.skipped == [.truncated: 1])
        // 030130 keeps its GLL, so every second from 030129 to 030133 is there.
        #expect(fixes.map { Recordings.timeOfDay($0.time) / 1000 } == Array(10889...10893))
    }

    @Test func binaryLogsAreRefusedWithAdvice() throws {
        for name in Recordings.binaryLogs.sorted() {
            let error = try #require(throws: TrackReadError.self) { try TrackReader(path: Recordings.log(name)) }
            #expect(error.description.contains(name))
            #expect(error.description.contains("replay it through gpsd"))
        }
    }
}
