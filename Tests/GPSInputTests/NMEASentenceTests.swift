import Foundation
import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

/// The NMEA reader on small hand-made logs, one rule at a time.
@Suite(.offCooperativePool) struct NMEASentenceTests {
    private func read(_ lines: [String], terminated: Bool = true) throws -> (fixes: [Fix], stats: ReplayStats) {
        let text = lines.joined(separator: "\r\n") + (terminated ? "\r\n" : "")
        let (fixes, stats, format) = try Recordings.readAll(try Recordings.temporaryFile(text, suffix: ".nmea"))
        #expect(format == .nmea)
        return (fixes, stats)
    }

    private let s = Recordings.sentence

    @Test func oneFixPerEpochFromGGARMCGSAGST() throws {
        let (fixes, stats) = try read([
            "# a comment",
            s("GNGGA,123519.00,4807.038,N,01131.000,W,1,08,0.9,545.4,M,46.9,M,,"),
            s("GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
            s("GNGST,123519.00,1.0,2.0,1.5,30,1.5,2.5,3.0"),
            s("GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),
            s("PGRME,15.0,M,45.0,M,25.0,M"),
            s("GNRMC,123519.00,A,4807.038,N,01131.000,W,022.4,084.4,230394,003.1,W,A"),
        ])
        #expect(fixes.count == 1)
        let fix = try #require(fixes.first)
        #expect(ISO8601.format(fix.time) == "1994-03-23T12:35:19.000Z")
        #expect(fix.mode == .threeD)
        #expect(abs(fix.coordinate!.latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(fix.coordinate!.longitude - -(11 + 31.0 / 60)) < 1e-12)
        #expect(fix.altitude == 545.4)
        #expect(fix.satellites == 8)
        #expect(fix.hdop == 0.9)
        #expect(abs(fix.speed! - 22.4 * 1852 / 3600) < 1e-12)
        #expect(fix.track == 84.4)
        // GST sigma × 1.96: latitude error → epy, longitude error → epx.
        #expect(abs(fix.epy! - 1.5 * 1.96) < 1e-12)
        #expect(abs(fix.epx! - 2.5 * 1.96) < 1e-12)
        #expect(stats.ignored == 2)
        #expect(stats.comments == 1)
        #expect(stats.skippedTotal == 0)
    }

    @Test func anyTalker() throws {
        for talker in ["GP", "GN", "GL", "GA", "BD", "GB", "QZ"] {
            let fixes = try read([s("\(talker)RMC,000001,A,0100.0,S,00100.0,E,0,0,010120,,")]).fixes
            #expect(fixes.count == 1 && fixes[0].hasPosition, "talker \(talker)")
        }
    }

    @Test func modeInferredWithoutGSA() throws {
        let fixes = try read([
            s("GPGGA,000001,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGGA,000002,0100.0,N,00100.0,E,1,05,1.0,,M,,M,,"),
            s("GPRMC,000003,A,0100.0,N,00100.0,E,0,0,010120,,"),
        ]).fixes
        #expect(fixes.map(\.mode) == [.threeD, .twoD, .twoD])
    }

    @Test func gsaDecidesMode() throws {
        let fixes = try read([
            s("GPGGA,000001,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGSA,A,2,01,02,03,,,,,,,,,,2.0,1.0,1.7"),
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,"),
        ]).fixes
        #expect(fixes.map(\.mode) == [.twoD])
        #expect(fixes[0].altitude == nil)
    }

    @Test func voidAndQualityZeroAreNoFix() throws {
        let fixes = try read([
            s("GPRMC,000001,V,0100.0,N,00100.0,E,0,0,010120,,"),
            s("GPGGA,000002,0100.0,N,00100.0,E,0,00,,,M,,M,,"),
            // GGA says fix, RMC of the same epoch says void: void wins.
            s("GPGGA,000003,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPRMC,000003,V,0100.0,N,00100.0,E,0,0,010120,,"),
            // Mode indicator N (not valid) overrides status A.
            s("GPRMC,000004,A,0100.0,N,00100.0,E,0,0,010120,,,N"),
        ]).fixes
        #expect(fixes.count == 4)
        #expect(fixes.allSatisfy { $0.mode == .noFix && $0.coordinate == nil })
        // The held no-fix epochs got the date of the first RMC.
        #expect(ISO8601.format(fixes[1].time) == "2020-01-01T00:00:02.000Z")
    }

    @Test func checksums() throws {
        let good = s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,")
        var bad = good
        bad.removeLast(2)
        bad += good.hasSuffix("00") ? "01" : "00"
        // Hex digits in lower case are accepted too.
        let lowerHex = s("GPRMC,000004,A,0100.0,N,00100.0,E,0,0,010120,,").lowercased()
            .replacingOccurrences(of: "$gprmc,000004,a,0100.0,n,00100.0,e,0,0,010120,,",
                                  with: "$GPRMC,000004,A,0100.0,N,00100.0,E,0,0,010120,,")
        let (fixes, stats) = try read([
            good,
            bad,
            "$GPRMC,000003,A,0100.0,N,00100.0,E,0,0,010120,,",  // no checksum: accepted, counted
            lowerHex,
        ])
        #expect(fixes.map { Int($0.time.timeIntervalSince1970) % 86400 } == [1, 3, 4])
        #expect(stats.skipped == [.badChecksum: 1])
        #expect(stats.missingChecksum == 1)
    }

    @Test func truncatedAndGarbage() throws {
        let (fixes, stats) = try read([
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,"),
            s("GPGGA,000001,0100.0,N"),                                       // too few fields
            "$GPGGA,000002,0100" + s("GPRMC,000002,A,0100.0,N,00100.0,E,0,0,010120,,"),  // cut off by the next
            "\u{00}\u{FF}\u{01}garbage",                                          // noise line
            "$GPRMC,000003,A,01\u{00}\u{00}\u{00}   ",                            // cut off, NUL padded
            s("GPRMC,000004,A,0100.0,N,00100.0,E,0,0,010120,,") + "trailing",  // two spliced together
            s("GPRMC,000005,A,01x0.0,N,00100.0,E,0,0,010120,,"),             // garbled field
            s("GPRMC,000006,A,0100.0,N,00100.0,E,0,0,010120,,"),
            "$GPRMC,000007,A,0100.0,N,00100.0,E,0,0,010120",                  // file ends mid-sentence
        ], terminated: false)
        #expect(fixes.map { Int($0.time.timeIntervalSince1970) % 86400 } == [1, 2, 6])
        #expect(stats.skipped == [.truncated: 4, .unparsable: 3])
        #expect(stats.skipSummary == "skipped 7 lines (4 truncated, 3 unparsable)")
    }

    @Test func twoDigitYears() throws {
        let fixes = try read([
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,311299,,"),
            s("GPRMC,000002,A,0100.0,N,00100.0,E,0,0,010180,,"),
            s("GPRMC,000003,A,0100.0,N,00100.0,E,0,0,010179,,"),
            s("GPRMC,000004,A,0100.0,N,00100.0,E,0,0,010100,,"),
        ]).fixes
        #expect(fixes.map { ISO8601.format($0.time).prefix(10) } == ["1999-12-31", "1980-01-01", "2079-01-01", "2000-01-01"])
    }

    /// Epochs before the first date are held and dated backwards from it, across midnight too.
    @Test func fixesBeforeTheFirstDateAreHeld() throws {
        let fixes = try read([
            s("GPGGA,235959,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGGA,000000,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,150624,,"),
            s("GPGGA,000002,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
        ]).fixes
        #expect(fixes.map { ISO8601.format($0.time) } == [
            "2024-06-14T23:59:59.000Z", "2024-06-15T00:00:00.000Z",
            "2024-06-15T00:00:01.000Z", "2024-06-15T00:00:02.000Z",
        ])
    }

    /// With no RMC or ZDA at all, fixes are dated from 1970-01-01, moving on a day at midnight.
    @Test func datelessLogFallsBackTo1970() throws {
        let fixes = try read([
            s("GPGGA,235958.5,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGGA,000000.5,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGGA,000000.0,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),  // a little backwards: same day
        ]).fixes
        #expect(fixes.map { ISO8601.format($0.time) } == [
            "1970-01-01T23:59:58.500Z", "1970-01-02T00:00:00.500Z", "1970-01-02T00:00:00.000Z",
        ])
    }

    @Test func zdaGivesTheDateAndMidnightRollsOver() throws {
        let fixes = try read([
            s("GPZDA,235959.00,31,12,2023,00,00"),
            s("GPGGA,235959.00,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
            s("GPGGA,000000.00,0100.0,N,00100.0,E,1,05,1.0,10.0,M,,M,,"),
        ]).fixes
        #expect(fixes.map { ISO8601.format($0.time) } == ["2023-12-31T23:59:59.000Z", "2024-01-01T00:00:00.000Z"])
    }

    @Test func gllAloneGivesAFix() throws {
        let fixes = try read([
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,"),
            s("GPGLL,0100.5,N,00100.5,E,000002.000,A,A"),
            s("GPGLL,0100.5,N,00100.5,E,000003.000,V,N"),
        ]).fixes
        #expect(fixes.map(\.mode) == [.twoD, .twoD, .noFix])
        #expect(fixes[1].coordinate == Coordinate(latitude: 1 + 0.5 / 60, longitude: 1 + 0.5 / 60))
    }

    @Test func emptyTimeIsCountedNotFatal() throws {
        let (fixes, stats) = try read([
            s("GPGGA,,,,,,0,,,,M,,M,,"),
            s("GPRMC,000001,A,0100.0,N,00100.0,E,0,0,010120,,"),
        ])
        #expect(fixes.count == 1)
        #expect(stats.skipped == [.noTime: 1])
    }
}
