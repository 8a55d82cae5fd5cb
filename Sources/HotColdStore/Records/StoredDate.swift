import Foundation
import GRDB

/// The store's dates as text, "yyyy-MM-dd HH:mm:ss.SSS" in UTC: byte for byte what GRDB's
/// `Date.databaseValue` writes, read back as GRDB's `Date.fromDatabaseValue` reads.
///
/// Why not GRDB's own: it formats with a `DateFormatter` and reads with a `Calendar`, both
/// through ICU, and the first date written maps ~4 MB of ICU data into the daemon, on a box
/// where the whole system should stay under 30 MB. Integer civil-date arithmetic does the same
/// job without ICU. Proleptic Gregorian: exact from the year 1583 on (ICU switches to the
/// Julian calendar before October 1582; the store holds no such dates).
///
/// ```swift
/// StoredDate.string(Date(timeIntervalSince1970: 0.25))   // "1970-01-01 00:00:00.250"
/// StoredDate.date("2000-02-29T12:30")                     // 2000-02-29 12:30:00 UTC
/// ```
enum StoredDate {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceOffset: Double = 978_307_200

    /// "yyyy-MM-dd HH:mm:ss.SSS", UTC. Milliseconds are rounded to the nearest, halves up
    /// (towards the future, also before 1970), as the DateFormatter does; years zero-padded to four.
    static func string(_ date: Date) -> String {
        let millis = ((date.timeIntervalSinceReferenceDate + referenceOffset) * 1000 + 0.5).rounded(.down)
        let ms = Int64(exactly: millis) ?? 0
        let (days, msInDay) = floorDivMod(ms, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(23)
        func put(_ value: Int64, _ width: Int) {
            var digits: [UInt8] = []
            var v = value
            repeat { digits.append(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 } while v > 0
            for _ in digits.count..<max(width, digits.count) { out.append(UInt8(ascii: "0")) }
            out.append(contentsOf: digits.reversed())
        }
        put(year > 0 ? year : 1 - year, 4)     // "yyyy" is the year of the era
        out.append(UInt8(ascii: "-")); put(month, 2)
        out.append(UInt8(ascii: "-")); put(day, 2)
        out.append(UInt8(ascii: " ")); put(msInDay / 3_600_000, 2)
        out.append(UInt8(ascii: ":")); put(msInDay / 60_000 % 60, 2)
        out.append(UInt8(ascii: ":")); put(msInDay / 1000 % 60, 2)
        out.append(UInt8(ascii: ".")); put(msInDay % 1000, 3)
        return String(decoding: out, as: UTF8.self)
    }

    /// A stored value as GRDB reads a `Date`: numbers are seconds since 1970; text is
    /// "yyyy-MM-dd", optionally followed (after " " or "T") by "HH:mm", ":ss", ".S…" and a
    /// "Z" / "±HH:mm" zone. Nil for anything else.
    static func date(_ value: DatabaseValue) -> Date? {
        switch value.storage {
        case .int64(let i): return Date(timeIntervalSince1970: Double(i))
        case .double(let d): return Date(timeIntervalSince1970: d)
        case .string(let s): return date(s)
        case .null, .blob: return nil
        }
    }

    /// Parses stored text (the forms above). Like GRDB, only the first three
    /// fractional digits count.
    static func date(_ text: String) -> Date? {
        var p = Array(text.utf8)[...]
        func number(_ width: Int) -> Int64? {
            guard p.count >= width else { return nil }
            var v: Int64 = 0
            for c in p.prefix(width) {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int64(c - UInt8(ascii: "0"))
            }
            p = p.dropFirst(width)
            return v
        }
        func take(_ c: Unicode.Scalar) -> Bool {
            guard p.first == UInt8(ascii: c) else { return false }
            p = p.dropFirst()
            return true
        }
        /// A zone suffix's offset in seconds, or nil when there is none to read.
        func zone() -> Int64? {
            if take("Z") { return 0 }
            let sign: Int64 = take("+") ? 1 : take("-") ? -1 : 0
            guard sign != 0, let h = number(2), take(":"), let m = number(2) else { return nil }
            return sign * (h * 3600 + m * 60)
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var seconds: Int64 = 0, millis: Int64 = 0, offset: Int64 = 0
        if !p.isEmpty {
            guard take(" ") || take("T"), let h = number(2), take(":"), let m = number(2) else { return nil }
            seconds = h * 3600 + m * 60
            if !p.isEmpty, let z = zone() { offset = z }
            else if !p.isEmpty {
                guard take(":"), let s = number(2) else { return nil }
                seconds += s
                if !p.isEmpty, let z = zone() { offset = z }
                else if !p.isEmpty {
                    guard take("."), p.first.map({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) == true
                    else { return nil }
                    var scale: Int64 = 100
                    while let c = p.first, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                        millis += Int64(c - UInt8(ascii: "0")) * scale
                        scale /= 10
                        p = p.dropFirst()
                    }
                    if !p.isEmpty, let z = zone() { offset = z }
                }
            }
        }
        guard p.isEmpty else { return nil }
        // Out-of-range months roll over into years, as a lenient Calendar does.
        let (carry, month0) = floorDivMod(month - 1, 12)
        let days = days(fromCivil: year + carry, month0 + 1, day)
        let sinceReference = days * 86_400 + seconds - offset - Int64(referenceOffset)
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) + Double(millis) / 1000)
    }

    // MARK: Civil dates (Howard Hinnant's algorithms: days since 1970-01-01, proleptic Gregorian)

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivMod(y, 400).0
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, doe) = floorDivMod(days + 719_468, 146_097)
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let r = a % b
        return r < 0 ? (a / b - 1, r + b) : (a / b, r)
    }
}

extension Row {
    /// The date in `column`, read by ``StoredDate``: what `row[column] as Date` gives, without
    /// ICU. Like it, a programming error (a trap) when the column holds no date.
    func storedDate(_ column: String) -> Date {
        guard let date = storedDate(ifPresent: column) else {
            fatalError("could not read a Date from column \(column): \(self[column] as DatabaseValue)")
        }
        return date
    }

    /// The date in `column`, nil when it is NULL (or holds no date).
    func storedDate(ifPresent column: String) -> Date? {
        StoredDate.date(self[column] as DatabaseValue)
    }
}
