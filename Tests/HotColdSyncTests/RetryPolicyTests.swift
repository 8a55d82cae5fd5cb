import Foundation
@testable import HotColdSync
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct RetryPolicyTests {
    @Test func exponentialCappedAndJittered() {
        let low = RetryPolicy(base: 2, cap: 60, jitter: { 0 })
        #expect((1...7).map { low.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 30, 30])
        let high = RetryPolicy(base: 2, cap: 60, jitter: { 1 })
        #expect((1...7).map { high.delay(afterFailures: $0) } == [2, 4, 8, 16, 32, 60, 60])
        let mid = RetryPolicy(base: 2, cap: 60, jitter: { 0.5 })
        #expect(mid.delay(afterFailures: 1000) == 45)
    }

    @Test func retryAfterWinsAndIsClamped() {
        let p = RetryPolicy(base: 2, cap: 60, maxRetryAfter: 3600, jitter: { 0 })
        #expect(p.delay(afterFailures: 1, retryAfter: 120) == 120)
        #expect(p.delay(afterFailures: 1, retryAfter: 1e9) == 3600)
        #expect(RetryPolicy.retryAfter("7") == 7)
        #expect(RetryPolicy.retryAfter(nil) == nil)
        #expect(RetryPolicy.retryAfter("soon") == nil)
        let now = Date(timeIntervalSince1970: 784_111_717)   // Sun, 06 Nov 1994 08:48:37 GMT
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 60)
        // RFC 9110's two obsolete forms, which a recipient must still read.
        #expect(RetryPolicy.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfter("Sun Nov  6 08:49:37 1994", now: now) == 60)
        // A date passed is no wait.
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:47:37 GMT", now: now) == 0)
    }

    /// The HTTP-date reader agrees with Foundation's formatter (what it replaced, which brought
    /// ICU's data into hotcold-sync) over every day of 1970–2100 at a varying time of day, and
    /// refuses what is no date.
    @Test func httpDatesAsTheFormatterReadThem() throws {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        var day = 0.0
        var checked = 0
        while day < 47_847 {    // 2101-01-01
            let t = Date(timeIntervalSince1970: day * 86_400 + Double((Int(day) * 7_919) % 86_400))
            let text = f.string(from: t)
            #expect(HTTPDate.parse(text) == t, "\(text)")
            checked += 1
            day += 1
        }
        #expect(checked == 47_847)
        for bad in ["Sun, 31 Feb 2021 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 PST",
                    "Sun, 6 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                    "Sun, 06 Nov 1994 08:49 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "", "Sun Nov 6 08:49:37"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
        #expect(HTTPDate.parse("Sun, 29 Feb 2004 00:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Sun, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Tuesday, 01-Jan-69 00:00:00 GMT") == Date(timeIntervalSince1970: 3_124_224_000))
    }

    /// A server's header is any bytes: mutations of real dates and random text are answered
    /// with a date or nil, never a trap, and a date only for text of one of the three forms.
    @Test func anyHeaderIsADateOrNothing() {
        var rng = SystemRandomNumberGenerator()
        let seeds = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]
        let alphabet = Array("0123456789:-, ADFGJMNOSTWadehilmnoprstuvy\u{0}\u{7F}é9999999999999999999")
        for i in 0..<50_000 {
            var chars = Array(seeds[i % seeds.count])
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars[at] = alphabet.randomElement(using: &rng)!
                case 1: chars.remove(at: at)
                default: chars.insert(alphabet.randomElement(using: &rng)!, at: at)
                }
                if chars.isEmpty { break }
            }
            let text = String(chars)
            if let d = HTTPDate.parse(text) {
                #expect(d.timeIntervalSince1970.isFinite && abs(d.timeIntervalSince1970) < 1e12, "\(text)")
            }
        }
        #expect(HTTPDate.parse(String(repeating: "Sun, ", count: 10_000)) == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 99999999999999999999 08:49:37 GMT") == nil)
    }

    @Test func secondsInAReasonReadTheSameEverywhere() {
        #expect(TransportError.seconds(5) == "5")
        #expect(TransportError.seconds(0.5) == "0.5")
        #expect(TransportError.seconds(2.26) == "2.3")
        #expect(TransportError.seconds(1234.04) == "1234")
        #expect(TransportError.seconds(-0.5) == "-0.5")
    }
}
