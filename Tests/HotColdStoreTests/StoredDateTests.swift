import Foundation
import GRDB
import HotColdCore
import HotColdProtocol
@testable import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// StoredDate must write exactly the text GRDB's `Date.databaseValue` writes (existing databases,
/// `WHERE next_attempt_at <= ?` and ORDER BY compare that text) and read back what GRDB reads.
@Suite(.offCooperativePool) struct StoredDateTests {
    /// GRDB's own text for a date: the DateFormatter StoredDate replaces.
    static func grdb(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }

    /// SplitMix64: the same dates on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let edges: [Double] = {
        var out: [Double] = [0, -0.0005, -0.001, -0.9995, -1, -86_400, 0.0005, 0.9995, 0.999_999_9, 59.9995,
                             946_684_800, 951_782_400, 951_825_600.123, 4_107_542_400, 4_107_542_399.999,  // 2000-01-01, 2000-02-29, 2100-03-01
                             -2_208_988_800, -2_208_988_800.5, 7_258_118_400, 253_402_300_799.999,          // 1900, 2200, 9999-12-31
                             -12_212_553_600, 1_795_460_000.25, 1_700_000_000.9995, 1_700_000_000.0005]    // 1583-01-01
        for base in [1_700_000_000.0, -1_000_000_000.0, 951_868_799.0] {
            for frac in [0.0, 0.0005, 0.001, 0.0015, 0.1, 0.123, 0.4995, 0.5, 0.9985, 0.999, 0.9995, 0.9999] {
                out += [base + frac, base - frac]
            }
        }
        return out
    }()

    static var randomDates: [Date] {
        var rng = Seeded(state: 20_261_128)
        let from = -2_208_988_800.0, to = 7_258_118_400.0     // 1900...2200
        return (0..<6000).map { i in
            let t = Double.random(in: from..<to, using: &rng)
            // Arbitrary; on a millisecond (as parsed dates are); halfway between two (rounding).
            switch i % 3 {
            case 0: return Date(timeIntervalSince1970: t)
            case 1: return Date(timeIntervalSince1970: (t * 1000).rounded() / 1000)
            default: return Date(timeIntervalSince1970: ((t * 1000).rounded() + 0.5) / 1000)
            }
        }
    }

    @Test func writesGRDBsTextByteForByte() {
        // Past 9999 the year takes a fifth digit, as in the DateFormatter.
        #expect(StoredDate.string(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01 00:00:00.000")
        var mismatches: [String] = []
        for date in Self.randomDates + (Self.edges + [253_402_300_800, 300_000_000_000]).map(Date.init(timeIntervalSince1970:)) {
            let mine = StoredDate.string(date), theirs = Self.grdb(date)
            if mine != theirs { mismatches.append("\(date.timeIntervalSince1970): \(mine) vs \(theirs ?? "nil")") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        #expect(StoredDate.string(Date(timeIntervalSince1970: 951_825_600.25)) == "2000-02-29 12:00:00.250")
        #expect(StoredDate.string(Date(timeIntervalSince1970: -0.001)) == "1969-12-31 23:59:59.999")
    }

    @Test func readsWhatItWritesAsGRDBDoes() {
        var mismatches: [String] = []
        for date in Self.randomDates + Self.edges.map(Date.init(timeIntervalSince1970:)) {
            let text = StoredDate.string(date)
            let mine = StoredDate.date(text), theirs = Date.fromDatabaseValue(text.databaseValue)
            if mine != theirs || mine.map(StoredDate.string) != text {
                mismatches.append("\(text): \(mine?.timeIntervalSince1970 ?? .nan) vs \(theirs?.timeIntervalSince1970 ?? .nan)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    @Test func readsEveryAcceptedForm() {
        let noon = 951_825_600.0    // 2000-02-29 12:00 UTC
        let forms: [(DatabaseValue, Double?)] = [
            ("2000-02-29 12:00:00.250".databaseValue, noon + 0.25),
            ("2000-02-29T12:00:00.250".databaseValue, noon + 0.25),
            ("2000-02-29 12:00:00.2".databaseValue, noon + 0.2),
            ("2000-02-29 12:00:00.25".databaseValue, noon + 0.25),
            ("2000-02-29 12:00:00.250999".databaseValue, noon + 0.25),   // past milliseconds: ignored
            ("2000-02-29 12:00:07".databaseValue, noon + 7),
            ("2000-02-29T12:00:07".databaseValue, noon + 7),
            ("2000-02-29 12:30".databaseValue, noon + 1800),
            ("2000-02-29T12:30".databaseValue, noon + 1800),
            ("2000-02-29".databaseValue, noon - 43_200),
            ("2100-03-01".databaseValue, 4_107_542_400),
            ("1969-12-31 23:59:59.999".databaseValue, -0.001),
            ("2000-02-29T12:00:00Z".databaseValue, noon),
            ("2000-02-29T14:00:00+02:00".databaseValue, noon),
            ("2000-02-29T11:30:00.500-00:30".databaseValue, noon + 0.5),
            (Int64(1_700_000_000).databaseValue, 1_700_000_000),
            (1_700_000_000.75.databaseValue, 1_700_000_000.75),
            (DatabaseValue.null, nil),
            ("12:30".databaseValue, nil),          // a time without a day is no date
            ("2000-2-29".databaseValue, nil),
            ("2000-02-29 12".databaseValue, nil),
            ("2000-02-29 12:00:00.".databaseValue, nil),
            ("2000-02-29x".databaseValue, nil),
            ("yesterday".databaseValue, nil),
        ]
        for (value, seconds) in forms {
            let mine = StoredDate.date(value)
            #expect(mine.map { abs($0.timeIntervalSince1970 - seconds!) < 1e-6 } ?? (seconds == nil), "\(value)")
            #expect(mine == Date.fromDatabaseValue(value), "\(value) as GRDB reads it")
        }
    }

    @Test func storeWritesAndReadsTheSameDates() throws {
        let f = try StoreFixture(); defer { f.remove() }
        try f.store.importFile(at: data("geocaches/cachebox3-GC2T9RW.gpx"), user: f.user)
        let arrived = Date(timeIntervalSince1970: 1_795_460_000.1239)
        let left = Date(timeIntervalSince1970: 1_795_463_600.9996)
        let visit = try f.store.recordArrival(placeID: "GC2T9RW", user: "alice", at: arrived, episode: "ep").visit
        #expect(try f.store.recordDeparture(placeID: "GC2T9RW", user: "alice", at: left) == 1)
        let stored = try f.store.database.read { db in try Visit.fetchOne(db, key: visit.id) }
        #expect(stored?.visitedAt == Store.storedDate(arrived) && stored?.departedAt == Store.storedDate(left))
        #expect(stored?.visitedAt.timeIntervalSince1970 == 1_795_460_000.124)
        let texts = try f.store.database.read { db in
            try Row.fetchOne(db, sql: "SELECT visited_at, departed_at FROM visit WHERE id = ?", arguments: [visit.id])
        }
        #expect(texts?["visited_at"] as String? == Self.grdb(arrived))
        #expect(texts?["departed_at"] as String? == Self.grdb(left))

        let jane = FriendID(parsing: "jane/ute")!
        _ = try f.store.follow(jane, user: "alice", at: arrived)
        #expect(try f.store.following(user: "alice").follows.map(\.since) == [Store.storedDate(arrived)])

        let before = Date()
        try f.store.setSyncValue("k", "v")
        let updated = try f.store.database.read { db in
            try String.fetchOne(db, sql: "SELECT updated_at FROM sync_state WHERE key = 'k'")
        }
        let parsed = try #require(updated.flatMap(StoredDate.date))
        #expect(parsed.timeIntervalSince(before) > -0.002 && parsed.timeIntervalSince(before) < 60, "\(updated ?? "nil")")
    }
}
