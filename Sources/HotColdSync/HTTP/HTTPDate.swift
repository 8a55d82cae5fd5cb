#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// An HTTP-date (RFC 9110 §5.6.7), as a `Retry-After` may carry one: the IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT` every server should send, and the two obsolete forms a
/// recipient must still read, RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's
/// `Sun Nov  6 08:49:37 1994`. Read with integer calendar arithmetic: a `DateFormatter` would
/// map ICU's data (megabytes) into `hotcold-sync` for one header.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The instant `text` names, or nil when it is none of the three forms (or no real date).
    static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        switch words.count {
        case 6:    // Sun, 06 Nov 1994 08:49:37 GMT
            guard words[0].hasSuffix(","), days.contains(String(words[0].dropLast())), words[5] == "GMT",
                  words[1].count == 2, words[3].count == 4 else { return nil }
            return date(year: Int(words[3]), month: month(words[2]), day: Int(words[1]), time: words[4])
        case 4:    // Sunday, 06-Nov-94 08:49:37 GMT
            let dmy = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard words[0].hasSuffix(","), longDays.contains(String(words[0].dropLast())), words[3] == "GMT",
                  dmy.count == 3, dmy[0].count == 2, dmy[2].count == 2, let yy = Int(dmy[2]) else { return nil }
            // Two-digit years: RFC 9110 reads one that would be over 50 years ahead as the past
            // century's; against any plausible clock, 00–69 are this century's.
            return date(year: yy < 70 ? 2000 + yy : 1900 + yy, month: month(dmy[1]), day: Int(dmy[0]), time: words[2])
        case 5:    // Sun Nov  6 08:49:37 1994
            guard days.contains(String(words[0])), words[2].count <= 2, words[4].count == 4 else { return nil }
            return date(year: Int(words[4]), month: month(words[1]), day: Int(words[2]), time: words[3])
        default:
            return nil
        }
    }

    private static func month(_ name: Substring) -> Int? {
        months.firstIndex(of: String(name)).map { $0 + 1 }
    }

    private static func date(year: Int?, month: Int?, day: Int?, time: Substring) -> Date? {
        let hms = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let year, let month, let day, hms.count == 3, hms.allSatisfy({ $0.count == 2 }),
              let h = Int(hms[0]), let m = Int(hms[1]), let s = Int(hms[2]),
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day) else { return nil }
        let days = ISO8601.days(fromCivil: Int64(year), Int64(month), Int64(day))
        return Date(timeIntervalSince1970: Double(days * 86_400 + Int64(h * 3600 + m * 60 + s)))
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
